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
        guard (1...70).contains(boundary.utf8.count) else {
            throw Problem(description: "the multipart boundary must be 1 to 70 characters")
        }
        let delimiter = Array(("--" + boundary).utf8)
        let separator = Array(("\r\n--" + boundary).utf8)
        guard var cursor = Self.firstDelimiter(delimiter, in: body) else {
            throw Problem(description: "the multipart body does not contain its boundary '\(boundary)'")
        }
        var parts: [Part] = []
        while true {
            cursor += delimiter.count
            if body[cursor...].starts(with: "--".utf8) { break }
            while cursor < body.count, body[cursor] == UInt8(ascii: " ") || body[cursor] == UInt8(ascii: "\t") { cursor += 1 }
            guard body[cursor...].starts(with: "\r\n".utf8) else {
                throw Problem(description: "the multipart body is truncated or malformed after a boundary")
            }
            cursor += 2
            guard let headerEnd = Self.search(Array("\r\n\r\n".utf8), in: body, from: cursor, limit: cursor + 16_384) else {
                throw Problem(description: "a multipart part's headers are truncated or longer than 16 KiB")
            }
            let headers = String(decoding: body[cursor..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let contentEnd = Self.search(separator, in: body, from: contentStart) else {
                throw Problem(description: "the multipart body is truncated: no closing boundary after part \(parts.count + 1)")
            }
            guard parts.count < maximumParts else {
                throw Problem(description: "the multipart body has more than \(maximumParts) parts")
            }
            parts.append(try Self.part(headers: headers, body: Array(body[contentStart..<contentEnd]), index: parts.count + 1))
            cursor = contentEnd + 2
        }
        self.parts = parts
    }

    private static func part(headers: String, body: [UInt8], index: Int) throws(Problem) -> Part {
        var name: String?
        var fileName: String?
        var contentType: String?
        for line in headers.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let field = line[..<colon].trimmingASCIISpace().lowercased()
            let value = line[line.index(after: colon)...].trimmingASCIISpace()
            if field == "content-type" { contentType = String(value) }
            guard field == "content-disposition" else { continue }
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
        return Part(name: name, fileName: fileName, contentType: contentType, body: body)
    }

    /// `form-data; name="a"; filename="b.txt"` → `[(name, a), (filename, b.txt)]`, honouring
    /// quoted values with `;` inside and `\"` escapes.
    static func dispositionParameters(_ value: Substring) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        var rest = value.drop { $0 != ";" }
        while !rest.isEmpty {
            rest = rest.dropFirst().drop { $0 == " " }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingASCIISpace().lowercased()
            rest = rest[rest.index(after: equals)...]
            var parsed = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    if character == "\\", rest.count > 1 { rest = rest.dropFirst() }
                    parsed.append(rest.first!)
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst().drop { $0 != ";" }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                parsed = String(rest[..<end].trimmingASCIISpace())
                rest = rest[end...]
            }
            result.append((key, parsed))
        }
        return result
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
