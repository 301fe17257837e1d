public import MockStackCore

/// What tells one recorded ServiceStack request from another: its method, its path (the route
/// as called) and the properties it carried — query parameters, then a JSON object's members
/// or form fields — named in any case, as ServiceStack binds them, each value as text (a JSON
/// value that is not a string as its JSON).
public struct RecordedRequestKey: Sendable, Equatable {
    public var method: String
    public var path: String
    /// Lower-cased name → value; a ``SecretMasking/mask`` value matches any.
    public var properties: [String: String]

    public init(method: String, path: String, properties: [String: String]) {
        self.method = method
        self.path = path
        self.properties = properties
    }

    /// The request's own (its path relative to the app).
    public init(_ request: HTTPRequest) {
        method = request.methodName
        path = request.path
        properties = Self.properties(of: request)
    }

    /// Whether `request`'s properties (``init(_:)``) are these, masked values matching any.
    public func matches(_ other: RecordedRequestKey) -> Bool {
        guard method == other.method, path == other.path, properties.count == other.properties.count else {
            return false
        }
        return properties.allSatisfy { name, value in
            guard let theirs = other.properties[name] else { return false }
            return value == SecretMasking.mask || value == theirs
        }
    }

    /// As the manifest keeps it: `{"method", "path", "request": {name: value}}`, the names as sent.
    static func properties(of request: HTTPRequest) -> [String: String] {
        var found: [String: String] = [:]
        for (name, value) in namedValues(of: request) { found[name.lowercased()] = value }
        return found
    }

    /// The properties with their names as sent, in order.
    static func namedValues(of request: HTTPRequest) -> [(name: String, value: String)] {
        var values: [(String, String)] = []
        let query = QueryParameters(request.query)
        for name in query.names { values.append((name, query[name] ?? "")) }
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        if type.contains("json"), let object = (try? JSONParser().parse(request.body).root)?.objectValue {
            for member in object {
                values.append(
                    (member.key, member.value.stringValue ?? String(decoding: member.value.encoded(), as: UTF8.self)))
            }
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            let form = QueryParameters(String(decoding: request.body, as: UTF8.self))
            for name in form.names { values.append((name, form[name] ?? "")) }
        }
        return values
    }
}
