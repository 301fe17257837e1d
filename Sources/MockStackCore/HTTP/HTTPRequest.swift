/// A complete HTTP request as the transport received it: plain values, no sockets.
///
/// Its fields share one box, copied only when a copy is changed: a request is passed and kept
/// several times on its way (routed to a mount, matched against stubs, recorded in the
/// journal), and each of those is then one reference count instead of a copy of seven fields.
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod {
        @inlinable get { storage.fields.method }
        set {
            let box = writable()
            box.fields.method = newValue
            box.fields.unknownMethodName = nil
        }
    }
    /// The method as the client spelled it: ``method``'s name, or for ``HTTPMethod/unknown``
    /// the token received (`PURGE`, `FOO`), as a server that names the verb in its answer
    /// needs it. Setting it sets ``method`` too.
    public var methodName: String {
        get { storage.fields.unknownMethodName ?? storage.fields.method.rawValue }
        set {
            let known = HTTPMethod(name: newValue)
            let box = writable()
            box.fields.method = known ?? .unknown
            box.fields.unknownMethodName = known == nil ? newValue : nil
        }
    }
    /// The request target exactly as sent (`/test/api/Hello?name=World`).
    public var target: String {
        @inlinable get { storage.fields.target }
        set { writable().fields.target = newValue }
    }
    /// The path part of ``target``, still percent-encoded, without the query.
    public var path: String {
        @inlinable get { storage.fields.path }
        set { writable().fields.path = newValue }
    }
    /// The raw query string after `?`, still percent-encoded, or `nil` when there was no `?`.
    public var query: String? {
        @inlinable get { storage.fields.query }
        set { writable().fields.query = newValue }
    }
    public var headers: HTTPHeaders {
        @inlinable get { storage.fields.headers }
        set { writable().fields.headers = newValue }
        // In place: `request.headers.add(…)` changes the box's own array, not a copy of it.
        _modify { yield &writable().fields.headers }
    }
    public var body: [UInt8] {
        @inlinable get { storage.fields.body }
        set { writable().fields.body = newValue }
        _modify { yield &writable().fields.body }
    }
    /// The path prefix an app is mounted at, once the request has been routed to one (`/test`).
    /// Empty for requests served at the root of a port.
    public var mountPath: String {
        @inlinable get { storage.fields.mountPath }
        set { writable().fields.mountPath = newValue }
    }

    /// Whether the request arrived over TLS (`serve --https-port`): its absolute URLs say
    /// `https`, and stubs may match on it.
    public var isSecure: Bool {
        @inlinable get { storage.fields.isSecure }
        set { writable().fields.isSecure = newValue }
    }

    /// Internal, not private: the getters above are inlined into other modules, so that reading
    /// `request.body.count` there borrows the box's array instead of calling a getter that
    /// retains it and releasing it after (each read from another module was a call and a
    /// reference count, several per request).
    @usableFromInline var storage: Storage

    /// The box, made this value's own first if another value shares it.
    private mutating func writable() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Changed only through ``writable()``, that is only while one value holds it, so sharing
    /// it between threads is safe. For the same reason no two accesses to its fields can overlap,
    /// so they skip the runtime's exclusivity check, which every read of a class's `var` would
    /// otherwise pay (several times per request).
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline @safe @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }

        func copy() -> Storage { Storage(fields) }

        /// A box of the same fields with `path` and `prefix` added to the mount path. Field by
        /// field, each read in place, rather than a copy of the whole struct then two changes,
        /// which retains the old path and mount path only to release them, on every request an
        /// app answers. A field added to ``Fields`` is an error here until it is passed on.
        func routed(path: String, prefix: String) -> Storage {
            let mountPath = fields.mountPath.isEmpty ? prefix : fields.mountPath + prefix
            return Storage(
                Fields(
                    method: fields.method, unknownMethodName: fields.unknownMethodName,
                    target: fields.target, path: path, query: fields.query, headers: fields.headers,
                    body: fields.body, mountPath: mountPath, isSecure: fields.isSecure))
        }
    }

    /// Every stored field, declared here once: the box, its copy and equality take them whole.
    @usableFromInline struct Fields: Equatable, Sendable {
        @usableFromInline var method: HTTPMethod
        /// The token of an ``HTTPMethod/unknown`` method; nil for a known one.
        @usableFromInline var unknownMethodName: String?
        @usableFromInline var target: String
        @usableFromInline var path: String
        @usableFromInline var query: String?
        @usableFromInline var headers: HTTPHeaders
        @usableFromInline var body: [UInt8]
        @usableFromInline var mountPath: String
        @usableFromInline var isSecure: Bool
    }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.storage === b.storage || a.storage.fields == b.storage.fields
    }

    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        mountPath: String = ""
    ) {
        let (path, query) = Self.split(target: target)
        self.init(
            method: method, target: target, path: path, query: query, headers: headers, body: body, mountPath: mountPath
        )
    }

    /// For a transport whose HTTP parser has already split the target (as it may, for every
    /// request): `path` and `query` as it found them, an empty path read as `/`.
    public init(
        method: HTTPMethod,
        target: String,
        path: String,
        query: String?,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        mountPath: String = ""
    ) {
        storage = Storage(
            Fields(
                method: method, unknownMethodName: nil, target: target, path: path.isEmpty ? "/" : path,
                query: query, headers: headers, body: body, mountPath: mountPath, isSecure: false))
    }

    /// Splits a request target into its path and raw query; absolute-form targets
    /// (`http://host/path`) are reduced to their path. Works on the UTF-8 view: the delimiters
    /// are all ASCII, and `Character` iteration would segment graphemes for nothing.
    static func split(target: String) -> (path: String, query: String?) {
        let bytes = target.utf8
        // Origin-form, nearly every request: one pass over the bytes, and a target without a
        // query or fragment is its own path (no copy).
        if bytes.first == UInt8(ascii: "/") {
            return UTF8Bytes.withSpan(target, Self.originForm) ?? (target, nil)
        }
        var pathStart = bytes.startIndex
        if bytes.first != UInt8(ascii: "/"), let authority = authorityStart(in: bytes) {
            pathStart =
                bytes[authority...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.endIndex
        }
        let end = bytes[pathStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let mark = bytes[pathStart..<end].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = mark ?? end
        let path = pathStart == pathEnd ? "/" : String(target[pathStart..<pathEnd])
        return (path, mark.map { String(target[bytes.index(after: $0)..<end]) })
    }

    /// An origin-form target's path and query, each made straight from the target's bytes;
    /// nil when it has neither query nor fragment (and so is its own path).
    private static func originForm(_ bytes: Span<UInt8>) -> (path: String, query: String?)? {
        var query: Int?
        var end = bytes.count
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") else { continue }
            if byte == UInt8(ascii: "#") {
                end = index
                break
            }
            if query == nil { query = index }
        }
        if query == nil, end == bytes.count { return nil }
        // Cut at ASCII delimiters, so each piece is whole UTF-8 (nothing to repair).
        let path = UTF8Bytes.string(decoding: bytes.extracting(..<(query ?? end)))
        guard let query else { return (path, nil) }
        return (path, UTF8Bytes.string(decoding: bytes.extracting((query + 1)..<end)))
    }

    /// Where the authority starts in an absolute-form target (after `scheme://`), if it is one.
    private static func authorityStart(in bytes: String.UTF8View) -> String.Index? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[..<colon].allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }),
            bytes[colon...].starts(with: "://".utf8)
        else { return nil }
        return bytes.index(colon, offsetBy: 3)
    }

    /// The same request as an app mounted at `prefix` sees it: `path` relative to the mount,
    /// and `prefix` added to ``mountPath`` (so a session's prefix and an app's mount compose).
    public func routed(toMount prefix: String) -> HTTPRequest {
        guard !prefix.isEmpty else { return self }
        let path = self.path
        let skipped = prefix.utf8.count
        // From the path's own bytes (a native string has them in one piece): the prefix ends on
        // a segment boundary, so this is whole characters.
        let relative = UTF8Bytes.withSpan(path) { bytes in
            bytes.count <= skipped ? "/" : UTF8Bytes.string(decoding: bytes.extracting(skipped...))
        }
        // One new box, made directly: this runs for every request an app answers.
        return HTTPRequest(storage: storage.routed(path: relative.isEmpty ? "/" : relative, prefix: prefix))
    }

    private init(storage: Storage) {
        self.storage = storage
    }
}
