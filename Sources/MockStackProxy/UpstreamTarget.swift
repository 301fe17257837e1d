public import MockStackCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The server a proxy stands for: `http` or `https`, a host, maybe a port and a base path, no
/// query or fragment. The proxy's root stands for it: `{proxy}/api/Hello?x=1` goes to
/// `{target}/api/Hello?x=1`.
public struct UpstreamTarget: Sendable, Equatable, CustomStringConvertible {
    /// The target as given, without a trailing `/` (`http://127.0.0.1:8080/test`).
    public let base: String
    /// The base path (`/test`), empty when the target is an origin.
    public let basePath: String
    /// `scheme://host[:port]`, as given.
    public let origin: String

    /// Checks `text` and says plainly what is wrong with it.
    public init(parsing text: String) throws(UpstreamTargetError) {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard text.contains("://"), let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased()
        else {
            throw UpstreamTargetError("'\(text)' is not a URL (expected http://host[:port][/path])")
        }
        guard scheme == "http" || scheme == "https" else {
            throw UpstreamTargetError("'\(text)': the scheme must be http or https, not \(scheme)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw UpstreamTargetError("'\(text)' names no host (expected http://host[:port][/path])")
        }
        guard components.query == nil, components.fragment == nil, components.user == nil, components.password == nil
        else {
            throw UpstreamTargetError("'\(text)': a target may not carry a query, a fragment or credentials")
        }
        guard !components.percentEncodedPath.contains("//") else {
            throw UpstreamTargetError("'\(text)': the path has an empty segment")
        }
        base = trimmed
        basePath = components.percentEncodedPath
        origin = String(trimmed.dropLast(basePath.utf8.count))
    }

    /// Where `request` goes: the base, the request's path (still percent-encoded, sent as it is:
    /// the client never resolves dot segments) and its query.
    public func url(for request: HTTPRequest) -> URL? {
        URL(string: base + request.path + (request.query.map { "?" + $0 } ?? ""))
    }

    /// Whether `path` has a `.` or `..` segment, written out or percent-encoded (`%2e`, any
    /// case). Such a path is refused, never forwarded: resolved, `..` would climb out of the base
    /// path to the target's other routes, and `record` would keep it as a route; sent as it is,
    /// the upstream would resolve it itself.
    public static func hasDotSegment(_ path: String) -> Bool {
        for segment in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            var dots = 0
            var index = segment.startIndex
            while index < segment.endIndex, dots < 3 {
                if segment[index] == UInt8(ascii: ".") {
                    index = segment.index(after: index)
                } else if segment[index] == UInt8(ascii: "%"), segment.distance(from: index, to: segment.endIndex) >= 3,
                    segment[segment.index(index, offsetBy: 1)] == UInt8(ascii: "2"),
                    segment[segment.index(index, offsetBy: 2)] | 0x20 == UInt8(ascii: "e")
                {
                    index = segment.index(index, offsetBy: 3)
                } else {
                    break
                }
                dots += 1
            }
            if index == segment.endIndex, (1...2).contains(dots) { return true }
        }
        return false
    }

    /// A `Location` the upstream sent, as the proxy's client must follow it: a URL under the
    /// target becomes the path under the proxy's root that stands for it; anything else (another
    /// host, a path outside the base) is left as it is.
    public func proxied(location: String) -> String {
        var path = location
        if location.utf8.first != UInt8(ascii: "/") {
            guard location.lowercased().hasPrefix(origin.lowercased()) else { return location }
            path = String(location.dropFirst(origin.count))
            if path.isEmpty { path = "/" }
        }
        guard path.utf8.first == UInt8(ascii: "/"), !path.hasPrefix("//") else { return location }
        guard !basePath.isEmpty else { return path }
        guard path.hasPrefix(basePath) else { return location }
        let rest = path.dropFirst(basePath.count)
        if rest.isEmpty { return "/" }
        guard let first = rest.first, first == "/" || first == "?" else { return location }
        return first == "?" ? "/" + rest : String(rest)
    }

    public var description: String { base }
}

/// A target that cannot be used, with what is wrong with it.
public struct UpstreamTargetError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
