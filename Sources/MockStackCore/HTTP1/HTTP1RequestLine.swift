/// A request line, `method SP request-target SP HTTP-version` (RFC 9112 §3), read and checked.
struct HTTP1RequestLine: Sendable, Equatable {
    var method: HTTPMethod
    /// The token of an ``HTTPMethod/unknown`` method (`PURGE`), for ``HTTPRequest/methodName``.
    var unknownMethodName: String?
    var target: String
    var version: HTTP1Version
    /// Whether the target is a path alone (origin-form without `?` or `#`): then it is the
    /// request's path as it is, with nothing to split.
    var targetIsPlainPath = false
    /// Whether ``target`` is the earlier target handed to ``parse(_:reusing:)``, spelled by the
    /// same bytes: then so are its path and query.
    var reusesEarlierTarget = false

    /// Reads `line` (without its line end, not empty).
    ///
    /// - The method must be a token; one ``HTTPMethod`` does not name is ``HTTPMethod/unknown``.
    /// - The version must be `HTTP/1.1` or `HTTP/1.0`; another `HTTP/x.y` is a 505, anything
    ///   else a 400 (so is `HTTP/2`: not the form of an HTTP/1 version at all).
    /// - The target must be visible ASCII, and origin-form (`/p?q`), absolute-form
    ///   (`scheme://authority…`, the scheme letters only, as ``HTTPRequest`` reduces it to its
    ///   path), `*` for OPTIONS only, or authority-form (`host:port`) for CONNECT only.
    ///
    /// `earlierTarget`, the connection's previous request's target, is shared when the bytes
    /// spell it again.
    static func parse(_ line: Span<UInt8>, reusing earlierTarget: String? = nil) throws(HTTP1ParseError) -> Self {
        // The spaces found eight bytes at a time: this runs over every request's line.
        let space = HTTP1Syntax.space
        let end = line.count
        let firstSpace = HTTP1Syntax.firstIndex(of: space, in: line, from: 0, to: end) ?? -1
        let secondSpace =
            firstSpace < 0 ? -1 : HTTP1Syntax.firstIndex(of: space, in: line, from: firstSpace + 1, to: end) ?? -1
        let moreSpaces =
            secondSpace >= 0 && HTTP1Syntax.firstIndex(of: space, in: line, from: secondSpace + 1, to: end) != nil
        guard !moreSpaces, firstSpace > 0, secondSpace > firstSpace + 1, secondSpace < line.count - 1 else {
            throw .malformed(
                "the request line must be 'method target HTTP-version', found '\(HTTP1ParseError.excerpt(line))'")
        }
        let methodBytes = line.extracting(..<firstSpace)
        let targetBytes = line.extracting((firstSpace + 1)..<secondSpace)
        let versionBytes = line.extracting((secondSpace + 1)...)
        guard HTTP1Syntax.isToken(methodBytes) else {
            throw .malformed("the method '\(HTTP1ParseError.excerpt(methodBytes))' is not a token")
        }
        let version = try Self.version(versionBytes)
        let method = Self.method(methodBytes)
        // One pass over the target for both questions, without early exits (an invisible byte
        // is rare), so that it compiles to a few instructions a byte.
        var invisible: UInt8 = 0
        var splitting: UInt8 = 0
        for index in targetBytes.indices {
            let byte = targetBytes[index]
            invisible |= byte &- 0x21 > 0x7E - 0x21 ? 1 : 0
            splitting |= (byte == UInt8(ascii: "?") ? 1 : 0) | (byte == UInt8(ascii: "#") ? 1 : 0)
        }
        let isVisible = invisible == 0
        let splits = splitting != 0
        if let problem = Self.targetProblem(targetBytes, method: method, isVisible: isVisible) {
            throw .malformed(problem)
        }
        let isPlainPath = targetBytes[0] == UInt8(ascii: "/") && !splits
        let unknownName = method == .unknown ? UTF8Bytes.string(decoding: methodBytes) : nil
        if let earlierTarget, HTTP1Syntax.spells(earlierTarget, targetBytes) {
            return Self(
                method: method, unknownMethodName: unknownName, target: earlierTarget, version: version,
                targetIsPlainPath: isPlainPath, reusesEarlierTarget: true)
        }
        return Self(
            method: method, unknownMethodName: unknownName, target: UTF8Bytes.string(decoding: targetBytes),
            version: version, targetIsPlainPath: isPlainPath)
    }

    /// `HTTP/1.1` or `HTTP/1.0`; a 505 for another `HTTP/DIGIT.DIGIT`, a 400 for anything else.
    private static func version(_ bytes: Span<UInt8>) throws(HTTP1ParseError) -> HTTP1Version {
        // Nearly every request, in one comparison.
        if HTTP1Syntax.equals(bytes, "HTTP/1.1") { return .http11 }
        guard bytes.count == 8, HTTP1Syntax.equals(bytes.extracting(..<5), "HTTP/"), HTTP1Syntax.isDigit(bytes[5]),
            bytes[6] == UInt8(ascii: "."), HTTP1Syntax.isDigit(bytes[7])
        else {
            throw .malformed("the HTTP version '\(HTTP1ParseError.excerpt(bytes))' is malformed (expected HTTP/1.1)")
        }
        switch (bytes[5], bytes[7]) {
        case (UInt8(ascii: "1"), UInt8(ascii: "1")): return .http11
        case (UInt8(ascii: "1"), UInt8(ascii: "0")): return .http10
        default: throw .unsupportedVersion(bytes)
        }
    }

    /// The method its bytes name (case-sensitive, as HTTP requires), compared without making
    /// a string, by length first: this runs for every request.
    private static func method(_ bytes: Span<UInt8>) -> HTTPMethod {
        @inline(__always) func named(_ name: String) -> Bool { HTTP1Syntax.equals(bytes, name) }
        switch bytes.count {
        case 3: return named("GET") ? .get : named("PUT") ? .put : .unknown
        case 4: return named("POST") ? .post : named("HEAD") ? .head : .unknown
        case 5: return named("PATCH") ? .patch : named("TRACE") ? .trace : .unknown
        case 6: return named("DELETE") ? .delete : .unknown
        case 7: return named("OPTIONS") ? .options : named("CONNECT") ? .connect : .unknown
        default: return .unknown
        }
    }

    /// What is wrong with the target for this method, or nil; `isVisible` says whether its
    /// bytes are all visible ASCII.
    private static func targetProblem(_ target: Span<UInt8>, method: HTTPMethod, isVisible: Bool) -> String? {
        guard isVisible else {
            return "the request target has a control character or a byte outside ASCII"
        }
        if method == .connect {
            return isAuthorityForm(target)
                ? nil : "a CONNECT request's target must be host:port, found '\(HTTP1ParseError.excerpt(target))'"
        }
        if target.count == 1, target[0] == UInt8(ascii: "*") {
            return method == .options ? nil : "the target '*' is only for OPTIONS"
        }
        if target[0] == UInt8(ascii: "/") || isAbsoluteForm(target) { return nil }
        return
            """
            the request target '\(HTTP1ParseError.excerpt(target))' is neither a path ('/p?q'), an absolute URI \
            ('http://host/p') nor '*'
            """
    }

    /// `scheme://authority[path]`, the scheme letters only and the authority not empty.
    private static func isAbsoluteForm(_ target: Span<UInt8>) -> Bool {
        guard let colon = HTTP1Syntax.firstIndex(of: HTTP1Syntax.colon, in: target, from: 0, to: target.count),
            colon > 0,
            !HTTP1Syntax.contains(
                target.extracting(..<colon), where: { !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }),
            target.count >= colon + 3, HTTP1Syntax.equals(target.extracting(colon..<(colon + 3)), "://")
        else { return false }
        let authority = colon + 3
        return authority < target.count && !"/?#".utf8.contains(target[authority])
    }

    /// `host:port`, the port digits, and nothing of a path, query or userinfo.
    private static func isAuthorityForm(_ target: Span<UInt8>) -> Bool {
        guard !HTTP1Syntax.contains(target, where: { "/?#@".utf8.contains($0) }) else { return false }
        var colon = target.count - 1
        while colon >= 0, target[colon] != HTTP1Syntax.colon { colon -= 1 }
        guard colon > 0, colon < target.count - 1 else { return false }
        return !HTTP1Syntax.contains(target.extracting((colon + 1)...)) { !HTTP1Syntax.isDigit($0) }
    }
}
