/// A `multipart/form-data` body split into its parts (RFC 7578), strictly: a missing boundary,
/// a truncated body or a part without a name is an error the caller answers with a 400.
public struct MultipartForm: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        /// The `name` of the part's Content-Disposition.
        public var name: String
        /// The `filename`, for file parts.
        public var fileName: String?
        /// The part's own Content-Type, as sent.
        public var contentType: String?
        public var body: [UInt8]

        public var isFile: Bool { fileName != nil }
    }

    public var parts: [Part]

    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        /// A problem saying `description`.
        public init(description: String) { self.description = description }
    }

    /// The boundary parameter of a `multipart/form-data` Content-Type.
    public static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIISpace().lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingASCIISpace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// Splits `body` on `boundary`, accepting at most `maximumParts` parts.
    public init(body: [UInt8], boundary: String, maximumParts: Int) throws(Problem) {
        var parts: [Part] = []
        try Self.scan(body, boundary: boundary, maximumParts: maximumParts) { (headers, content) throws(Problem) in
            let fields = try Self.fields(headers, index: parts.count + 1)
            parts.append(
                Part(
                    name: fields.name, fileName: fields.fileName, contentType: fields.contentType,
                    body: Array(body[content])))
        }
        self.parts = parts
    }

    /// What the request journal keeps of a part: its fields and its size, not its bytes.
    public struct Summary: Sendable, Equatable {
        public var name: String
        public var fileName: String?
        public var contentType: String?
        public var size: Int
    }

    /// The parts described without copying their bytes, by the same rules as ``init(body:boundary:maximumParts:)``.
    public static func summaries(of body: [UInt8], boundary: String, maximumParts: Int) throws(Problem) -> [Summary] {
        var summaries: [Summary] = []
        try scan(body, boundary: boundary, maximumParts: maximumParts) { (headers, content) throws(Problem) in
            let fields = try Self.fields(headers, index: summaries.count + 1)
            summaries.append(
                Summary(
                    name: fields.name, fileName: fields.fileName, contentType: fields.contentType, size: content.count))
        }
        return summaries
    }

    /// Finds each part's header bytes and content in one pass over the body (each byte is
    /// looked at a bounded number of times), handing them over in order.
    private static func scan(
        _ body: [UInt8], boundary: String, maximumParts: Int,
        _ part: (ArraySlice<UInt8>, Range<Int>) throws(Problem) -> Void
    ) throws(Problem) {
        guard (1...70).contains(boundary.utf8.count) else {
            throw Problem(description: "the multipart boundary must be 1 to 70 characters")
        }
        let delimiter = Array(("--" + boundary).utf8)
        let separator = Array(("\r\n--" + boundary).utf8)
        guard var cursor = Self.firstDelimiter(delimiter, in: body) else {
            throw Problem(description: "the multipart body does not contain its boundary '\(boundary)'")
        }
        var count = 0
        while true {
            cursor += delimiter.count
            if body[cursor...].starts(with: "--".utf8) { break }
            while cursor < body.count, body[cursor] == UInt8(ascii: " ") || body[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            guard body[cursor...].starts(with: "\r\n".utf8) else {
                throw Problem(description: "the multipart body is truncated or malformed after a boundary")
            }
            cursor += 2
            guard let headerEnd = Self.search(Array("\r\n\r\n".utf8), in: body, from: cursor, limit: cursor + 16_384)
            else {
                throw Problem(description: "a multipart part's headers are truncated or longer than 16 KiB")
            }
            let contentStart = headerEnd + 4
            guard let contentEnd = Self.search(separator, in: body, from: contentStart) else {
                throw Problem(
                    description: "the multipart body is truncated: no closing boundary after part \(count + 1)")
            }
            guard count < maximumParts else {
                throw Problem(description: "the multipart body has more than \(maximumParts) parts")
            }
            count += 1
            try part(body[cursor..<headerEnd], contentStart..<contentEnd)
            cursor = contentEnd + 2
        }
    }

    /// The name, file name and Content-Type of a part's header lines.
    private static func fields(
        _ headers: ArraySlice<UInt8>, index: Int
    ) throws(Problem) -> (name: String, fileName: String?, contentType: String?) {
        var name: String?
        var fileName: String?
        var contentType: String?
        var lineStart = headers.startIndex
        while lineStart < headers.endIndex {
            var lineEnd = lineStart
            while lineEnd < headers.endIndex,
                !(headers[lineEnd] == 0x0D && lineEnd + 1 < headers.endIndex && headers[lineEnd + 1] == 0x0A)
            {
                lineEnd += 1
            }
            let line = headers[lineStart..<lineEnd]
            lineStart = lineEnd + 2
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let field = line[..<colon].trimmingASCIISpace()
            let value = line[(colon + 1)...].trimmingASCIISpace()
            if equalsIgnoringCase(field, "content-type") { contentType = String(decoding: value, as: UTF8.self) }
            guard equalsIgnoringCase(field, "content-disposition") else { continue }
            for parameter in dispositionParameters(value) {
                switch parameter.key {
                case "name": name = parameter.value
                case "filename": fileName = parameter.value
                default: break
                }
            }
        }
        guard let name else {
            throw Problem(description: "multipart part \(index) has no Content-Disposition name")
        }
        return (name, fileName, contentType)
    }

    /// `form-data; name="a"; filename="b.txt"` → `[(name, a), (filename, b.txt)]`, honouring
    /// quoted values with `;` inside and `\"` escapes. One pass over the bytes: every step
    /// moves forward, so a value of backslashes costs its length, not its length squared.
    static func dispositionParameters(_ value: ArraySlice<UInt8>) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        let end = value.endIndex
        var index = value.firstIndex(of: UInt8(ascii: ";")) ?? end
        while index < end {
            index += 1  // the `;`
            while index < end, value[index] == UInt8(ascii: " ") { index += 1 }
            guard let equals = value[index...].firstIndex(of: UInt8(ascii: "=")) else { break }
            let key = String(decoding: value[index..<equals].trimmingASCIISpace(), as: UTF8.self).lowercased()
            index = equals + 1
            var parsed: [UInt8] = []
            if index < end, value[index] == UInt8(ascii: "\"") {
                index += 1
                while index < end, value[index] != UInt8(ascii: "\"") {
                    // `\x` is `x`; a backslash last of all stays itself.
                    if value[index] == UInt8(ascii: "\\"), index + 1 < end { index += 1 }
                    parsed.append(value[index])
                    index += 1
                }
                index = value[min(index + 1, end)...].firstIndex(of: UInt8(ascii: ";")) ?? end
            } else {
                let stop = value[index...].firstIndex(of: UInt8(ascii: ";")) ?? end
                parsed = Array(value[index..<stop].trimmingASCIISpace())
                index = stop
            }
            result.append((key, String(decoding: parsed, as: UTF8.self)))
        }
        return result
    }

    /// ASCII case-insensitive comparison with a lowercase name.
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: String) -> Bool {
        HTTP1Syntax.equalsIgnoringCase(bytes.span, lowercase)
    }

    /// The first delimiter at the very start of the body or after a line break.
    private static func firstDelimiter(_ delimiter: [UInt8], in body: [UInt8]) -> Int? {
        if body.starts(with: delimiter) { return 0 }
        return search(Array("\r\n".utf8) + delimiter, in: body, from: 0).map { $0 + 2 }
    }

    static func search(_ needle: [UInt8], in haystack: [UInt8], from start: Int, limit: Int = .max) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        let last = min(haystack.count - needle.count, limit)
        var index = start
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
