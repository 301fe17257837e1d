/// The cookies a request sends, from its `Cookie` headers (`a=1; b=2`), in order: what
/// ServiceStack's sessions read and what stubs match (`match.cookies`).
public struct RequestCookies: Sendable {
    private var values: [(name: String, value: String)] = []

    public init(_ headers: HTTPHeaders) {
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                values.append((String(parts[0].trimmingASCIISpace()), String(parts[1].trimmingASCIISpace())))
            }
        }
    }

    /// The first cookie of that name's value, as sent (empty included).
    public func value(named name: String) -> String? {
        values.first { $0.name == name }.map(\.value)
    }

    /// A non-empty cookie's value.
    public subscript(name: String) -> String? {
        value(named: name).flatMap { $0.isEmpty ? nil : $0 }
    }
}
