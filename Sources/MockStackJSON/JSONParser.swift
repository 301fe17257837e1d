/// A strict RFC 8259 JSON parser that keeps key order and, on request, the source position of
/// every value keyed by its JSON pointer (for `file:line:column` diagnostics).
public struct JSONParser {
    /// A parsed document and where each of its values starts.
    public struct Document: Sendable {
        /// The document's value.
        public let root: JSONValue
        /// JSON pointer → position of the value's first character. Empty unless positions were
        /// requested.
        public let positions: [String: SourcePosition]

        /// The position of the value at `pointer`, or of its nearest recorded ancestor.
        public func position(of pointer: String) -> SourcePosition {
            var current = pointer
            while true {
                if let found = positions[current] { return found }
                guard let slash = current.lastIndex(of: "/") else { return .start }
                current = String(current[..<slash])
            }
        }
    }

    /// The deepest nesting accepted; deeper input is rejected instead of exhausting the stack.
    public var maximumDepth: Int
    /// The most values (scalars, arrays and objects, each counted once) a document may hold;
    /// more is rejected as soon as the count passes it, before the rest is read.
    public var maximumValues: Int

    /// A parser refusing documents nested deeper than `maximumDepth` or holding more than `maximumValues` values.
    public init(maximumDepth: Int = 256, maximumValues: Int = .max) {
        self.maximumDepth = maximumDepth
        self.maximumValues = maximumValues
    }

    /// For request bodies: a client's document is refused past 250,000 values. Linear as it
    /// is, a body of millions of tiny values would hold a loop for seconds; this many are far
    /// more than any test sends and are read quickly enough not to stall the loop's other clients.
    public static func forRequestBodies(maximumDepth: Int = 256) -> JSONParser {
        JSONParser(maximumDepth: maximumDepth, maximumValues: requestBodyValueLimit)
    }

    /// The most values ``forRequestBodies(maximumDepth:)`` reads in one document.
    public static let requestBodyValueLimit = 250_000

    /// Parses a whole document; trailing non-whitespace is an error.
    public func parse(_ bytes: [UInt8], recordPositions: Bool = false) throws(JSONSyntaxError) -> Document {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth, recordPositions: recordPositions)
        reader.maximumValues = maximumValues
        let root = try reader.parseDocument()
        return Document(root: root, positions: reader.positions)
    }

    /// Parses a document that is an array, handing over its elements one at a time, so no more
    /// than one element is held at once (a data set of thousands of rows is read in the memory
    /// of one). Returns false, having called `element` for none, when the document is not an array.
    public func forEachElement(of bytes: [UInt8], _ element: (Int, JSONValue) -> Void) throws(JSONSyntaxError) -> Bool {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth, recordPositions: false)
        reader.maximumValues = maximumValues
        return try reader.parseArrayDocument(element)
    }

    /// Parses a document from text.
    public func parse(_ text: String, recordPositions: Bool = false) throws(JSONSyntaxError) -> Document {
        try parse(Array(text.utf8), recordPositions: recordPositions)
    }
}

/// Why and where a JSON text failed to parse.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong (`unexpected end of input, expected a value`).
    public var message: String
    /// Where it was found.
    public var position: SourcePosition
    /// The pointer of the container being read when the error was found.
    public var pointer: String

    /// `line:column: message`.
    public var description: String { "\(position): \(message)" }
}

private struct Reader {
    let bytes: [UInt8]
    let maximumDepth: Int
    let recordPositions: Bool
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    /// Values read so far, and the most allowed (``JSONParser/maximumValues``).
    var valueCount = 0
    var maximumValues = Int.max
    var positions: [String: SourcePosition] = [:]
    /// Where the parser is: keys and indexes from the root. Rendered as a pointer only for an
    /// error or a recorded position, so plain parsing builds no pointer strings.
    var path: [PathComponent] = []
    /// Whether the document is ``largeDocument`` bytes or more: a data set, a metadata document.
    /// Only then are names remembered, signed and arrays sized ahead, which costs a small
    /// document (a request body) more than it saves.
    let isLarge: Bool
    static let largeDocument = 4096
    /// Member names read lately, in slots chosen by their signature: a data set's rows, or a
    /// metadata document's types, spell the same few names again and again, and a name found
    /// here is not decoded again.
    var nameCache: [CachedName?] = []

    struct CachedName {
        /// Where the name's bytes are in ``bytes``.
        var range: Range<Int>
        var signature: UInt64
        var text: String
    }

    /// How many members the last object read at each depth had: the next one there (a data
    /// set's next row, a metadata type's next property) likely has as many, so its array is
    /// made that size at once instead of growing by doubling (six allocations for twenty).
    var sizeHints: [Int] = []
    /// The ``stringSignature``s of the names of the objects being read, innermost last.
    var signatureStack: [UInt64] = []
    /// Of the last string read in a large document: its UTF-8 length and three of its bytes.
    /// Names with different signatures differ, so most objects are shown free of repeated
    /// names with one integer comparison per pair of members.
    var stringSignature: UInt64 = 0

    enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// With ``recordPositions``: the pointer of each container being read, innermost last, so
    /// a value's pointer is its container's plus one step, not rendered from the root again.
    var containerPointers: [String] = []

    /// The pointer of the value about to be read: one step below the innermost container's.
    var recordedPointer: String {
        guard let last = path.last else { return "" }
        let container = containerPointers.last ?? ""
        switch last {
        case .key(let key): return JSONPointer.appending(key, to: container)
        case .index(let index): return JSONPointer.appending(index, to: container)
        }
    }

    var pointer: String {
        path.reduce(into: "") { pointer, component in
            switch component {
            case .key(let key): pointer = JSONPointer.appending(key, to: pointer)
            case .index(let index): pointer = JSONPointer.appending(index, to: pointer)
            }
        }
    }

    init(bytes: [UInt8], maximumDepth: Int, recordPositions: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.recordPositions = recordPositions
        isLarge = bytes.count >= Self.largeDocument
        // A UTF-8 byte-order mark is tolerated at the very start, as editors write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    var position: SourcePosition {
        // Columns count characters: skip UTF-8 continuation bytes.
        var column = 1
        var i = lineStart
        while i < index {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourcePosition(line: line, column: column)
    }

    func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position, pointer: pointer)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected \(describe(bytes[index])) after the end of the document") }
        return value
    }

    mutating func parseArrayDocument(_ element: (Int, JSONValue) -> Void) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
            _ = try parseDocument()
            return false
        }
        try parseElements(element)
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected \(describe(bytes[index])) after the end of the document") }
        return true
    }

    mutating func skipWhitespace() {
        // Most calls meet a value or a delimiter at once.
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input, expected a value") }
        guard valueCount < maximumValues else { throw fail("more than \(maximumValues) values in one document") }
        valueCount += 1
        var containerPointer = ""
        if recordPositions {
            containerPointer = recordedPointer
            positions[containerPointer] = position
        }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if recordPositions { containerPointers.append(containerPointer) }
            defer { if recordPositions { containerPointers.removeLast() } }
            return bytes[index] == UInt8(ascii: "{") ? try parseObject() : try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected \(describe(bytes[index])), expected a value")
        }
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth { throw fail("nesting deeper than \(maximumDepth) levels") }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        let base = signatureStack.count
        var members: [JSONObject.Member] = []
        if isLarge {
            if sizeHints.count < depth {
                sizeHints.append(contentsOf: repeatElement(0, count: depth - sizeHints.count))
            }
            // At most 64: an earlier huge object does not make every later one huge.
            members.reserveCapacity(min(sizeHints[depth - 1], 64))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail(
                    index < bytes.count
                        ? "expected a quoted member name, found \(describe(bytes[index]))"
                        : "unexpected end of input inside an object")
            }
            let key = try parseName()
            let signature = stringSignature
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append((key: key, value: value))
            if isLarge { signatureStack.append(signature) }
            if try closes(UInt8(ascii: "}"), "an object") { break }
        }
        depth -= 1
        guard isLarge else { return .object(JSONObject(Self.withoutDuplicateKeys(members))) }
        sizeHints[depth] = members.count
        let mayRepeat = Self.mayRepeatNames(signatureStack[base...])
        signatureStack.removeSubrange(base...)
        return .object(JSONObject(mayRepeat ? Self.withoutDuplicateKeys(members) : members))
    }

    /// Whether two of an object's member names may be the same: two equal signatures, or too
    /// many names to compare pairwise (``withoutDuplicateKeys(_:)`` then decides).
    static func mayRepeatNames(_ signatures: ArraySlice<UInt64>) -> Bool {
        guard signatures.count > 1 else { return false }
        guard signatures.count <= 64 else { return true }
        let first = signatures.startIndex
        for later in (first + 1)..<signatures.endIndex {
            let signature = signatures[later]
            for earlier in first..<later where signatures[earlier] == signature { return true }
        }
        return false
    }

    /// The ``stringSignature`` of the UTF-8 bytes `utf8[start..<end]`.
    static func signature(of utf8: [UInt8], from start: Int, to end: Int) -> UInt64 {
        guard start < end else { return 0 }
        let first = UInt64(utf8[start])
        let middle = UInt64(utf8[start + (end - start) / 2])
        let last = UInt64(utf8[end - 1])
        return UInt64(end - start) | first << 32 | middle << 40 | last << 48
    }

    /// A repeated member name keeps its first place and its last value, as `JSON.parse` does
    /// (and as System.Text.Json does binding a DTO: the last value wins), so an echoed record
    /// never repeats a key. Names are the same when their UTF-8 is, as RFC 8259 §8.3 compares
    /// strings.
    static func withoutDuplicateKeys(_ members: [JSONObject.Member]) -> [JSONObject.Member] {
        guard members.count > 1, hasDuplicateKeys(members) else { return members }
        var firstPlace: [[UInt8]: Int] = [:]
        firstPlace.reserveCapacity(members.count)
        var unique: [JSONObject.Member] = []
        for member in members {
            let name = Array(member.key.utf8)
            if let place = firstPlace[name] {
                unique[place].value = member.value
            } else {
                firstPlace[name] = unique.count
                unique.append(member)
            }
        }
        return unique
    }

    /// Objects of up to 64 members, the usual case, are checked pairwise without allocating
    /// (most pairs differ in length, one comparison each).
    private static func hasDuplicateKeys(_ members: [JSONObject.Member]) -> Bool {
        if members.count <= 64 {
            for later in 1..<members.count {
                let key = members[later].key
                for earlier in 0..<later where members[earlier].key.hasSameUTF8(as: key) { return true }
            }
            return false
        }
        var seen = Set<[UInt8]>(minimumCapacity: members.count)
        return !members.allSatisfy { seen.insert(Array($0.key.utf8)).inserted }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        var elements: [JSONValue] = []
        try parseElements { elements.append($1) }
        return .array(elements)
    }

    /// Reads an array from its `[`, handing over each element with its index.
    mutating func parseElements(_ element: (Int, JSONValue) -> Void) throws(JSONSyntaxError) {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        var count = 0
        while true {
            skipWhitespace()
            path.append(.index(count))
            element(count, try parseValue())
            path.removeLast()
            count += 1
            if try closes(UInt8(ascii: "]"), "an array") { break }
        }
        depth -= 1
    }

    /// After a member or an element: steps over the `,` before the next one (false) or the
    /// `closing` bracket (true); anything else is an error inside `container`.
    @inline(__always)
    mutating func closes(_ closing: UInt8, _ container: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input inside \(container)") }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ",") { return false }
        if byte == closing { return true }
        index -= 1
        throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))' in \(container), found \(describe(byte))")
    }

    mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let count = literal.utf8.count
        let matches = index + count <= bytes.count && bytes[index..<index + count].elementsEqual(literal.utf8)
        guard matches else { throw fail("invalid literal, expected '\(literal)'") }
        index += count
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        func digits() -> Int {
            let begin = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - begin
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw fail("a number needs digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw fail("a number needs digits")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { throw fail("a decimal point must be followed by digits") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            if digits() == 0 { throw fail("an exponent must have digits") }
        }
        if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            throw fail("numbers must not have leading zeros")
        }
        return JSONNumber(literal: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        // Fast path: no escapes or control characters — the text is the bytes as they are.
        var nonASCII = false
        let scan = Self.plainRun(in: bytes, from: index, nonASCII: &nonASCII)
        if scan < bytes.count, bytes[scan] == UInt8(ascii: "\"") {
            let run = bytes[index..<scan]
            if isLarge { stringSignature = Self.signature(of: bytes, from: index, to: scan) }
            index = scan + 1
            guard nonASCII else { return String(decoding: run, as: UTF8.self) }
            // As the slow path below fails it: after the closing quote.
            guard let text = String(validating: run, as: UTF8.self) else { throw fail("string is not valid UTF-8") }
            return text
        }
        var runStart = index
        var plain: [UInt8] = []
        func flush() {
            if runStart < index { plain.append(contentsOf: bytes[runStart..<index]) }
        }
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush()
                index += 1
                break
            }
            if byte < 0x20 { throw fail("control character \(describe(byte)) must be escaped in a string") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            flush()
            index += 1
            guard index < bytes.count else { throw fail("unterminated escape sequence") }
            let escape = bytes[index]
            index += 1
            let replacement: UInt8?
            switch escape {
            case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
            case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
            case UInt8(ascii: "b"): replacement = 0x08
            case UInt8(ascii: "f"): replacement = 0x0C
            case UInt8(ascii: "n"): replacement = 0x0A
            case UInt8(ascii: "r"): replacement = 0x0D
            case UInt8(ascii: "t"): replacement = 0x09
            case UInt8(ascii: "u"):
                replacement = nil
                let scalar = try parseUnicodeEscape()
                var encoded: [UInt8] = []
                encoded.reserveCapacity(4)
                UTF8.encode(scalar) { encoded.append($0) }
                plain.append(contentsOf: encoded)
            default:
                index -= 1
                throw fail("invalid escape '\\\(describe(escape, quoted: false))'")
            }
            if let replacement { plain.append(replacement) }
            runStart = index
        }
        guard let text = String(validating: plain, as: UTF8.self) else {
            throw fail("string is not valid UTF-8")
        }
        if isLarge { stringSignature = Self.signature(of: plain, from: 0, to: plain.count) }
        return text
    }

    /// A member name: ``parseString()``, but a short plain ASCII name read before is taken
    /// from ``nameCache``.
    mutating func parseName() throws(JSONSyntaxError) -> String {
        let start = index + 1
        var nonASCII = false
        let end = Self.plainRun(in: bytes, from: start, nonASCII: &nonASCII)
        guard isLarge, end < bytes.count, bytes[end] == UInt8(ascii: "\""), !nonASCII, end - start <= 32 else {
            return try parseString()
        }
        if nameCache.isEmpty { nameCache = Array(repeating: nil, count: 64) }
        let signature = Self.signature(of: bytes, from: start, to: end)
        let slot = Int(truncatingIfNeeded: (signature &* 0x9E37_79B9_7F4A_7C15) >> 58)
        index = end + 1
        stringSignature = signature
        if let cached = nameCache[slot], cached.signature == signature,
            Self.sameBytes(in: bytes, at: cached.range.lowerBound, and: start, count: end - start)
        {
            return cached.text
        }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        nameCache[slot] = CachedName(range: start..<end, signature: signature, text: text)
        return text
    }

    /// Whether `bytes[a..<a + count]` and `bytes[b..<b + count]` are the same.
    static func sameBytes(in bytes: [UInt8], at a: Int, and b: Int, count: Int) -> Bool {
        for offset in 0..<count where bytes[a + offset] != bytes[b + offset] { return false }
        return true
    }

    /// Where the run of string bytes from `start` that need no decoding ends: at a quote, a
    /// backslash, a control character or the end. Notes whether the run holds non-ASCII bytes.
    static func plainRun(in bytes: [UInt8], from start: Int, nonASCII: inout Bool) -> Int {
        var scan = start
        var high: UInt8 = 0
        #if DEBUG
        // Indexed reads in a debug build (a client's `swift test` spawns one): there the slice's
        // iterator below runs unspecialized, where `[UInt8]`'s subscript has a specialization in
        // the runtime's debug support library. Optimized, the iterator is the faster of the two.
        let end = bytes.count
        let quote: UInt8 = 0x22
        let backslash: UInt8 = 0x5C
        while scan < end {
            let byte = bytes[scan]
            if byte < 0x20 || byte == quote || byte == backslash { break }
            high |= byte
            scan += 1
        }
        #else
        // An iterator over the slice, which the optimizer reads without a bounds check a byte.
        for byte in bytes[start...] {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            high |= byte
            scan += 1
        }
        #endif
        nonASCII = high >= 0x80
        return scan
    }

    mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw fail("unpaired surrogate \\u\(String(high, radix: 16))")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid low surrogate") }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw fail("unpaired surrogate \\u\(String(high, radix: 16))") }
        return scalar
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("\\u needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func describe(_ byte: UInt8, quoted: Bool = true) -> String {
        let text =
            (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
        return quoted && (0x21...0x7E).contains(byte) ? "'\(text)'" : text
    }
}
