import MockStackCore

/// A `[Route]` path template (`/hello/{Name}`, `/technology/{Slug}`, `/files/{Path*}`) compiled
/// for matching against request paths.
struct RouteTemplate: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case variable(String)
        /// `{Name*}` or `{**Name}`: the rest of the path, slashes included (only as the last segment).
        case remainder(String)
    }

    let path: String
    let segments: [Segment]
    /// Upper-cased verbs the route is limited to; empty = any verb.
    let verbs: Set<String>
    /// How specific the template is: literal segments beat variables (`/technology/search`
    /// over `/technology/{Slug}`), more segments beat fewer, and a route limited to verbs beats
    /// one for any verb (`PUT /technology/{Id}` over `/technology/{Slug}` for a PUT). Worked out
    /// once: the router's sort asks for it a few thousand times.
    let specificity: (literals: Int, segments: Int, verbLimited: Int)

    init(_ route: MetadataRoute) {
        path = route.path
        verbs = Set(route.verbs)
        segments = route.path.split(separator: "/", omittingEmptySubsequences: true).map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return .literal(part.lowercased()) }
            let name = part.dropFirst().dropLast()
            // `{**Name}` is ASP.NET Core's spelling of the same catch-all (ServiceStack 8 routes).
            if name.hasPrefix("**") { return .remainder(String(name.dropFirst(2))) }
            return name.hasSuffix("*") ? .remainder(String(name.dropLast())) : .variable(String(name))
        }
        specificity = (
            segments.filter { if case .literal = $0 { true } else { false } }.count, segments.count,
            verbs.isEmpty ? 0 : 1
        )
    }

    /// The names of its variables, `{Path*}`'s included, in order.
    var variableNames: [String] {
        segments.compactMap { segment in
            switch segment {
            case .variable(let name), .remainder(let name): name
            case .literal: nil
            }
        }
    }

    func allows(_ verb: String) -> Bool { verbs.isEmpty || verbs.contains(verb) }

    /// The variables bound by `pathSegments` (already split, still percent-encoded), or nil
    /// when the path does not fit. Literals compare case-insensitively, as ServiceStack does.
    func match(_ pathSegments: [Substring]) -> [(name: String, value: String)]? {
        var bindings: [(name: String, value: String)] = []
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .remainder(let name):
                let rest = pathSegments[min(index, pathSegments.count)...]
                bindings.append((name, rest.map { PercentDecoding.decode($0) }.joined(separator: "/")))
                return bindings
            case .literal(let text):
                guard index < pathSegments.count, pathSegments[index].lowercased() == text else { return nil }
            case .variable(let name):
                guard index < pathSegments.count else { return nil }
                bindings.append((name, PercentDecoding.decode(pathSegments[index])))
            }
        }
        return pathSegments.count == segments.count ? bindings : nil
    }
}
