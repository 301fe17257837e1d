import MockStackCore

/// A REST request's body as Express's parsers read it for a Feathers app (docs/feathers.md#request-bodies): JSON,
/// or urlencoded through qs in extended mode (every value text); any other content type, or
/// none, is an empty object.
enum RequestBody {
    static func parse(_ request: HTTPRequest) throws(FeathersError) -> JSONValue {
        let type = Array((request.headers["Content-Type"] ?? "").utf8)
        let bytes = request.body
        if contains(type[...], json) {
            guard bytes.contains(where: { !$0.isASCIISpace }) else { return .object([:]) }
            let root: JSONValue
            do {
                root = try JSONParser.forRequestBodies().parse(bytes).root
            } catch {
                // A body-parser failure; Express's handler may report it as 500 (docs/feathers.md#request-bodies,
                // Unverified), but bad input gets a 4xx here, with the parser's reason.
                throw FeathersError(
                    .badRequest,
                    "Invalid JSON at line \(error.position.line), column \(error.position.column): \(error.message)")
            }
            // body-parser's strict mode takes only objects and arrays.
            switch root {
            case .object, .array: return root
            default: throw FeathersError(.badRequest, "Invalid JSON: the body must be an object or an array")
            }
        }
        if type.count >= formType.count, contains(type[..<formType.count], formType) {
            return .object(QSParser().parse(String(decoding: bytes, as: UTF8.self)))
        }
        return .object([:])
    }

    private static let json = Array("json".utf8)
    private static let formType = Array("application/x-www-form-urlencoded".utf8)

    /// Whether `text` holds `word` (lower-case ASCII), ignoring ASCII case.
    private static func contains(_ text: ArraySlice<UInt8>, _ word: [UInt8]) -> Bool {
        guard text.count >= word.count else { return false }
        for start in text.startIndex...(text.endIndex - word.count) {
            var offset = 0
            while offset < word.count, text[start + offset].asciiLowercased == word[offset] { offset += 1 }
            if offset == word.count { return true }
        }
        return false
    }

    /// Whether the client takes JSON: no `Accept`, or one that admits `application/json`
    /// (`*/*`, `application/*`, `application/json`, `+json` types) with a non-zero quality.
    static func acceptsJSON(_ accept: String?) -> Bool {
        guard let accept, !accept.trimmingASCIISpace().isEmpty else { return true }
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingASCIISpace().lowercased() }
            guard let range = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            guard quality > 0 else { continue }
            if range == "*/*" || range == "application/*" || range == "application/json" || range.hasSuffix("+json") {
                return true
            }
        }
        return false
    }
}
