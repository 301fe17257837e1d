import MockStackCore

/// One control-plane endpoint: the paths under `/__mockstack` it answers and what each method it
/// allows does. ``ControlPlane/routes`` declares them all once; dispatch, the `405` answers with
/// their `Allow` header and the `404`'s list of endpoints are read from that table.
struct ControlRoute: Sendable {
    /// Answers a request; the string is the path's variable part (a stub's id, a scenario's
    /// name as sent), empty for an endpoint without one.
    typealias Handler = @Sendable (ControlPlane, HTTPRequest, String) -> HTTPResponse

    /// The endpoint paths (after `/__mockstack`) a route answers.
    enum Path: Sendable {
        /// Any of these exactly.
        case exact([String])
        /// `prefix{variable}suffix`, the variable empty only when `allowsEmpty`.
        case variable(prefix: String, suffix: String, allowsEmpty: Bool)

        /// `prefix{variable}`.
        static func under(_ prefix: String, allowsEmpty: Bool) -> Path {
            .variable(prefix: prefix, suffix: "", allowsEmpty: allowsEmpty)
        }
    }

    /// What some methods do.
    struct Answer: Sendable {
        let methods: [HTTPMethod]
        let handler: Handler

        /// `GET` and `HEAD` alike: the transport leaves out the body of a `HEAD`'s answer.
        static func reading(_ handler: @escaping Handler) -> Answer {
            Answer(methods: [.get, .head], handler: handler)
        }

        static func on(_ method: HTTPMethod, _ handler: @escaping Handler) -> Answer {
            Answer(methods: [method], handler: handler)
        }
    }

    let path: Path
    /// Not offered to a session's control plane (`/__session/{id}/__mockstack/…`).
    let wholeServerOnly: Bool
    let answers: [Answer]

    init(_ path: Path, wholeServerOnly: Bool = false, _ answers: [Answer]) {
        self.path = path
        self.wholeServerOnly = wholeServerOnly
        self.answers = answers
    }

    /// One exact path.
    init(_ path: String, wholeServerOnly: Bool = false, _ answers: [Answer]) {
        self.init(.exact([path]), wholeServerOnly: wholeServerOnly, answers)
    }

    /// The variable part of `endpoint` if the route answers it (empty for an exact path), else nil.
    func variable(in endpoint: String) -> String? {
        switch path {
        case .exact(let paths):
            return paths.contains(endpoint) ? "" : nil
        case .variable(let prefix, let suffix, let allowsEmpty):
            guard endpoint.hasPrefix(prefix), endpoint.hasSuffix(suffix),
                endpoint.count >= prefix.count + suffix.count + (allowsEmpty ? 0 : 1)
            else { return nil }
            return String(endpoint.dropFirst(prefix.count).dropLast(suffix.count))
        }
    }

    /// What answers `method`, if the route allows it.
    func handler(for method: HTTPMethod) -> Handler? {
        answers.first { $0.methods.contains(method) }?.handler
    }

    /// The methods it allows, alphabetically, as `Allow` lists them.
    var allowed: [String] { answers.flatMap(\.methods).map(\.rawValue).sorted() }

    /// The endpoint's first segment (`requests` for `/requests/count`); empty for the page.
    var section: Substring {
        let first =
            switch path {
            case .exact(let paths): paths[0]
            case .variable(let prefix, _, _): prefix
            }
        return first.split(separator: "/").first ?? ""
    }
}
