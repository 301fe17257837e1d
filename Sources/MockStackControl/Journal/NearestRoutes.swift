import MockStackCore

/// The mounted routes closest to a path nothing took ("did you mean /test/api/Hello?"), for
/// the journal's unmatched entries. Worked out when the journal is read, never on a request.
///
/// The distance is an edit distance over the paths' bytes, ASCII case ignored, after each
/// placeholder segment of a route (`{Name}`, `:id`) takes the request's segment in its place;
/// a route is compared with its mount and without, so that a path that left the mount out
/// (`/api/Hello` for `/test/api/Hello`) finds its route first.
/// It is bounded: paths are compared on their first ``comparedBytes`` bytes, at most
/// ``routeLimit`` routes are looked at, and a route whose length alone is further off than
/// the threshold is passed over without a comparison.
struct NearestRoutes {
    /// One route as a suggestion: its full path (mount included), the app and what answers there.
    struct Route: Sendable, Equatable {
        var app: String
        var name: String
        var methods: [String]
        var path: String
        /// The path without its mount, as a client that left the mount out would send it.
        fileprivate var relative: String
        fileprivate var segments: [Substring]
        fileprivate var relativeSegments: [Substring]
        fileprivate var hasPlaceholders: Bool
    }

    static let comparedBytes = 256
    static let routeLimit = 4_096
    /// Distinct paths one journal read works suggestions out for (the newest).
    static let pathsPerRead = 64
    /// Suggestions given for one path.
    static let suggestions = 3

    let routes: [Route]

    init(apps: [any MockApp]) {
        var routes: [Route] = []
        for app in apps {
            for route in app.routes {
                let path = app.mount + route.path
                let segments = path.split(separator: "/", omittingEmptySubsequences: false)
                routes.append(
                    Route(
                        app: app.name, name: route.name, methods: route.methods, path: path, relative: route.path,
                        segments: segments,
                        relativeSegments: route.path.split(separator: "/", omittingEmptySubsequences: false),
                        hasPlaceholders: segments.contains(where: Self.isPlaceholder)))
                if routes.count == Self.routeLimit { break }
            }
        }
        self.routes = routes
    }

    /// The most a suggestion may differ from `path`: about half its length, at least 4.
    static func threshold(for path: String) -> Int {
        max(4, (min(path.utf8.count, comparedBytes) + 1) / 2)
    }

    /// Up to ``suggestions`` routes nearest to `path`, nearest first, within ``threshold(for:)``.
    /// Among equals, the apps `used` counts more requests for come first (a client that left
    /// the mount out of `/api/Hello` most likely meant the app it has been calling), then the
    /// first listed.
    func nearest(to path: String, used: [String: Int] = [:]) -> [Route] {
        let limit = Self.threshold(for: path)
        let requestSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        var scored: [(distance: Int, unused: Int, index: Int)] = []
        for (index, route) in routes.enumerated() {
            let full = route.hasPlaceholders ? Self.instantiate(route.segments, with: requestSegments) : route.path
            let relative =
                route.hasPlaceholders ? Self.instantiate(route.relativeSegments, with: requestSegments) : route.relative
            let distances = [Self.distance(path, full, atMost: limit), Self.distance(path, relative, atMost: limit)]
                .compactMap { $0 }
            guard let distance = distances.min() else { continue }
            scored.append((distance, -(used[route.app] ?? 0), index))
        }
        scored.sort { ($0.distance, $0.unused, $0.index) < ($1.distance, $1.unused, $1.index) }
        var seen = Set<String>()
        var found: [Route] = []
        for (_, _, index) in scored where seen.insert(routes[index].path).inserted {
            found.append(routes[index])
            if found.count == Self.suggestions { break }
        }
        return found
    }

    private static func isPlaceholder(_ segment: Substring) -> Bool {
        segment.hasPrefix(":") || (segment.hasPrefix("{") && segment.hasSuffix("}"))
    }

    /// The route's path with each placeholder replaced by the request's segment at its place
    /// (emptied where the request has none).
    private static func instantiate(_ segments: [Substring], with request: [Substring]) -> String {
        segments.enumerated().map { index, segment in
            guard isPlaceholder(segment) else { return segment }
            return index < request.count ? request[index] : ""
        }.joined(separator: "/")
    }

    /// The edit distance between `a` and `b` (their first ``comparedBytes`` bytes, ASCII case
    /// ignored), or nil when it is above `limit`: two rows, given up on as soon as a whole row
    /// is above the limit.
    static func distance(_ a: String, _ b: String, atMost limit: Int) -> Int? {
        let x = Array(a.utf8.prefix(comparedBytes)).map(lowered)
        let y = Array(b.utf8.prefix(comparedBytes)).map(lowered)
        guard abs(x.count - y.count) <= limit else { return nil }
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...y.count {
                let substitution = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[y.count] <= limit ? previous[y.count] : nil
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// A suggestion as the journal shows it.
    static func json(_ route: Route) -> JSONValue {
        [
            "path": .string(route.path), "app": .string(route.app), "name": .string(route.name),
            "methods": .array(route.methods.map(JSONValue.string)),
        ]
    }
}
