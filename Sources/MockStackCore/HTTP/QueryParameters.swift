/// A request's query parameters as the control plane, stubs and Engine.IO read them: decoded
/// (`+` as a space, ``URLEncodedPairs``), the last value of a repeated name winning.
public struct QueryParameters: Sendable {
    /// The names, in the order they first appear.
    public private(set) var names: [String] = []
    private var values: [String: String] = [:]

    public init(_ query: String?) {
        for (name, value) in URLEncodedPairs.split(query ?? "") ?? [] {
            if values[name] == nil { names.append(name) }
            values[name] = value
        }
    }

    public subscript(name: String) -> String? { values[name] }

    /// The value of `name`; with `ignoringCase`, of the first name that equals it in any ASCII case.
    public func value(named name: String, ignoringCase: Bool) -> String? {
        if let value = values[name] { return value }
        guard ignoringCase, let found = names.first(where: { $0.equalsIgnoringASCIICase(name) }) else { return nil }
        return values[found]
    }
}
