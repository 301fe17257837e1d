/// A request's query parameters as the control plane, stubs and Engine.IO read them: decoded
/// (`+` as a space, ``URLEncodedPairs``), the last value of a repeated name winning.
public struct QueryParameters: Sendable {
    /// The names, in the order they first appear.
    public private(set) var names: [String] = []
    private var values: [String: String] = [:]
    /// Every value of a name given more than once, in order (most names are given once).
    private var repeated: [String: [String]] = [:]

    public init(_ query: String?) {
        for (name, value) in URLEncodedPairs.split(query ?? "") ?? [] {
            if let earlier = values[name] {
                repeated[name, default: [earlier]].append(value)
            } else {
                names.append(name)
            }
            values[name] = value
        }
    }

    /// Every value of `name`, in order; with `ignoringCase`, of the first name that equals it in
    /// any ASCII case.
    public func allValues(named name: String, ignoringCase: Bool) -> [String] {
        var found = name
        if values[name] == nil {
            guard ignoringCase, let other = names.first(where: { $0.equalsIgnoringASCIICase(name) }) else { return [] }
            found = other
        }
        return repeated[found] ?? values[found].map { [$0] } ?? []
    }

    public subscript(name: String) -> String? { values[name] }

    /// The value of `name`; with `ignoringCase`, of the first name that equals it in any ASCII case.
    public func value(named name: String, ignoringCase: Bool) -> String? {
        if let value = values[name] { return value }
        guard ignoringCase, let found = names.first(where: { $0.equalsIgnoringASCIICase(name) }) else { return nil }
        return values[found]
    }
}
