import MockStackCore

/// The cookies of a request's `Cookie` headers.
struct Cookies {
    private var values: [(name: String, value: String)] = []

    init(_ headers: HTTPHeaders) {
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                values.append((String(parts[0].trimmingASCIISpace()), String(parts[1].trimmingASCIISpace())))
            }
        }
    }

    /// A non-empty cookie's value.
    subscript(name: String) -> String? {
        values.first { $0.name == name }.map(\.value).flatMap { $0.isEmpty ? nil : $0 }
    }
}
