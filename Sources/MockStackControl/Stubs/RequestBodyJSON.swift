import MockStackCore

/// One request's body read as JSON at most once, and only when something asks: every stub
/// whose `match` looks at the body, and every `{{body…}}` of a template answer, share the one
/// parse: a template of many placeholders over a large body must not parse it once each.
///
/// A class, so that the stubs looking at one request share it; it lives for that request on
/// one thread only and is never stored.
final class RequestBodyJSON {
    private let body: [UInt8]
    private var parsed: JSONValue??
    /// How often the body was parsed: 0 or 1 (tests hold it to that).
    private(set) var parses = 0

    init(_ request: HTTPRequest) {
        body = request.body
    }

    /// The body as JSON, or nil when it is not JSON.
    var value: JSONValue? {
        if let parsed { return parsed }
        parses += 1
        let value = try? JSONParser.forRequestBodies().parse(body).root
        parsed = .some(value)
        return value
    }
}
