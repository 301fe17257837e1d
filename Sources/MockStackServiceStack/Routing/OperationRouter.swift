import MockStackCore

/// Finds the operation a request path names, the way ServiceStack's routing does (docs/servicestack.md#routing):
/// the predefined routes `/api/{Op}` (with a `.json` suffix or a `[]` batch suffix),
/// `/json/reply/{Op}` and `/json/oneway/{Op}`, then the custom `[Route]` templates, literal
/// segments before variables and verb-limited routes only for their verbs.
public struct OperationRouter: Sendable {
    /// A request that reached an operation.
    public struct Match: Sendable, Equatable {
        /// The operation's name (its request DTO).
        public var operation: String
        /// Its position in the list the router was made from.
        public var index: Int
        /// Values bound from `{Var}` segments of a custom route, percent-decoded, names as the
        /// template spells them.
        public var pathVariables: [PathVariable]
        /// `POST /api/{Op}[]`: a JSON array of requests, answered with an array.
        public var isBatch: Bool
        /// `/json/oneway/{Op}`: the result is dropped and the answer is 204 (Unverified on the
        /// wire; what ServiceStack's oneway handler most plausibly sends).
        public var isOneWay: Bool
    }

    public struct PathVariable: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public enum Outcome: Sendable, Equatable {
        case operation(Match)
        /// A predefined route naming no operation of this app: 405 `NotImplementedException`.
        case unknownOperation(String)
        /// Not a ServiceStack route at all: a plain 404.
        case notFound
    }

    /// Lower-cased name → position; exact names are tried first among those of their length.
    private let positionsByLowercasedName: [String: Int]
    private let names: [String]
    /// Each name's UTF-8, and the positions of the names of each length: an exact name is
    /// compared byte by byte with the few of its length, where a scan of every name would run
    /// on each request, and `==` on two different strings goes through Unicode comparison.
    private let nameBytes: [[UInt8]]
    private let positionsByLength: [[Int]]
    private let templates: [(template: RouteTemplate, operation: Int)]

    /// - Parameter operations: each operation's name and its `[Route]`s.
    public init(operations: [(name: String, routes: [MetadataRoute])]) {
        // ServiceStack matches operation names case-insensitively on predefined routes.
        names = operations.map(\.name)
        nameBytes = names.map { Array($0.utf8) }
        var byLength: [[Int]] = []
        for (position, name) in names.enumerated() {
            let length = name.utf8.count
            if byLength.count <= length { byLength += Array(repeating: [], count: length + 1 - byLength.count) }
            byLength[length].append(position)
        }
        positionsByLength = byLength
        positionsByLowercasedName = Dictionary(
            operations.enumerated().map { ($0.element.name.lowercased(), $0.offset) },
            uniquingKeysWith: { first, _ in first })
        templates = operations.enumerated()
            .flatMap { position, operation in operation.routes.map { (RouteTemplate($0), position) } }
            .sorted { $0.template.specificity > $1.template.specificity }
    }

    /// Routes a path (relative to the app's mount, still percent-encoded) for a verb.
    public func route(path: String, verb: String) -> Outcome {
        // `/api/{Op}`, the route clients use nearly always, from the path's bytes in one piece.
        if let outcome = UTF8Bytes.withSpan(path, { apiRoute($0) }) { return outcome }
        let segments = Self.segments(of: path)
        if let predefined = predefined(segments) { return predefined }
        let verb = verb.uppercased()
        for entry in templates where entry.template.allows(verb) {
            if let bindings = entry.template.match(segments) {
                let variables = bindings.map { PathVariable(name: $0.name, value: $0.value) }
                return .operation(
                    Match(
                        operation: names[entry.operation], index: entry.operation, pathVariables: variables,
                        isBatch: false, isOneWay: false))
            }
        }
        return .notFound
    }

    private static let apiPrefix = Array("/api/".utf8)
    private static let batchSuffix = Array("[]".utf8)
    private static let jsonSuffix = Array(".json".utf8)

    /// `/api/{Op}` (`[]` for a batch, `.json` allowed), read without splitting the path; nil
    /// for any other path, which the segment routes handle.
    private func apiRoute(_ path: Span<UInt8>) -> Outcome? {
        let prefix = Self.apiPrefix
        guard path.count > prefix.count else { return nil }
        for index in prefix.indices where path[index].asciiLowercased != prefix[index] { return nil }
        var rest = path.extracting(prefix.count...)
        var escaped = false
        for index in rest.indices {
            if rest[index] == UInt8(ascii: "/") { return nil }
            if rest[index] == UInt8(ascii: "%") { escaped = true }
        }
        var name: String
        var isBatch: Bool
        if escaped {
            // Decoded first, so that an escaped `%5B%5D` is a batch too.
            var bytes: [UInt8] = []
            UTF8Bytes.append(rest, to: &bytes)
            name = PercentDecoding.decode(bytes: bytes[...], plusAsSpace: false)
            isBatch = name.utf8.count >= 2 && name.utf8.suffix(2).elementsEqual(Self.batchSuffix)
            if isBatch { name.removeLast(2) }
            if name.utf8.count > 5, name.utf8.suffix(5).elementsEqual(Self.jsonSuffix) { name.removeLast(5) }
        } else {
            // Most names have no escape: their bytes, less the suffixes, are the name.
            isBatch = Self.endsWith(rest, Self.batchSuffix)
            if isBatch { rest = rest.extracting(..<(rest.count - 2)) }
            if rest.count > 5, Self.endsWith(rest, Self.jsonSuffix) { rest = rest.extracting(..<(rest.count - 5)) }
            // An exact name needs no string of its own: the operation's is the match's.
            if let position = exactPosition(of: rest) {
                return .operation(
                    Match(
                        operation: names[position], index: position, pathVariables: [], isBatch: isBatch,
                        isOneWay: false))
            }
            name = UTF8Bytes.string(decoding: rest)
        }
        return resolve(name, isBatch: isBatch, isOneWay: false)
    }

    private static func endsWith(_ bytes: Span<UInt8>, _ suffix: [UInt8]) -> Bool {
        guard bytes.count >= suffix.count else { return false }
        let start = bytes.count - suffix.count
        for index in suffix.indices where bytes[start + index] != suffix[index] { return false }
        return true
    }

    /// The non-empty segments of a path, found on its UTF-8 view.
    static func segments(of path: String) -> [Substring] {
        var segments: [Substring] = []
        let utf8 = path.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
            if start < end { segments.append(path[start..<end]) }
            start = end == utf8.endIndex ? end : utf8.index(after: end)
        }
        return segments
    }

    private func predefined(_ segments: [Substring]) -> Outcome? {
        if segments.count == 2, segments[0].equalsIgnoringASCIICase("api") {
            var name = PercentDecoding.decode(segments[1])
            let isBatch = name.hasSuffix("[]")
            if isBatch { name.removeLast(2) }
            if name.utf8.count > 5, name.utf8.suffix(5).elementsEqual(".json".utf8) { name.removeLast(5) }
            return resolve(name, isBatch: isBatch, isOneWay: false)
        }
        // `/{format}/reply|oneway/{Op}`. Only JSON is emulated; `/xml/…` and `/jsv/…` fall
        // through to the custom routes and, failing those, a 404.
        if segments.count == 3, segments[0].equalsIgnoringASCIICase("json") {
            var name = PercentDecoding.decode(segments[2])
            let isBatch = name.hasSuffix("[]")
            if isBatch { name.removeLast(2) }
            switch segments[1].lowercased() {
            case "reply": return resolve(name, isBatch: isBatch, isOneWay: false)
            case "oneway": return resolve(name, isBatch: isBatch, isOneWay: true)
            default: return nil
            }
        }
        return nil
    }

    private func resolve(_ name: String, isBatch: Bool, isOneWay: Bool) -> Outcome {
        // An exact name is found by comparing strings (cheaper than hashing one), any other
        // spelling through the lower-cased index.
        guard let position = exactPosition(of: name) ?? positionsByLowercasedName[name.lowercased()] else {
            return .unknownOperation(name)
        }
        return .operation(
            Match(operation: names[position], index: position, pathVariables: [], isBatch: isBatch, isOneWay: isOneWay))
    }

    private func exactPosition(of name: String) -> Int? {
        UTF8Bytes.withSpan(name) { exactPosition(of: $0) }
    }

    private func exactPosition(of name: Span<UInt8>) -> Int? {
        guard name.count < positionsByLength.count else { return nil }
        for position in positionsByLength[name.count] where Self.equal(nameBytes[position], name) { return position }
        return nil
    }

    private static func equal(_ bytes: [UInt8], _ span: Span<UInt8>) -> Bool {
        for index in bytes.indices where bytes[index] != span[index] { return false }
        return true
    }
}
