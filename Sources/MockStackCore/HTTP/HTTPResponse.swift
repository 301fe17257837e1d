/// A response value: what to send, and how the transport should deliver it.
///
/// What is sent (status, reason, headers, body and the head rendered from them) shares one box,
/// copied only when a copy is changed: a response is returned from where it is kept (a
/// fixture's, a cache's), passed through faults and the pipeline and recorded in the journal,
/// and each of those is then one reference count instead of a copy of every field.
public struct HTTPResponse: Sendable, Equatable, CustomDebugStringConvertible {
    public var status: Int {
        @inlinable get { storage.fields.status }
        set { writableDroppingHead().fields.status = newValue }
    }
    /// The reason phrase; `nil` uses the standard one for ``status``.
    public var reason: String? {
        @inlinable get { storage.fields.reason }
        set { writableDroppingHead().fields.reason = newValue }
    }
    public var headers: HTTPHeaders {
        @inlinable get { storage.fields.headers }
        set { writableDroppingHead().fields.headers = newValue }
        // In place: `response.headers.set(…)` changes the box's own array, not a copy of it.
        _modify { yield &writableDroppingHead().fields.headers }
    }
    public var body: [UInt8] {
        @inlinable get { storage.fields.body }
        set { writableDroppingHead().fields.body = newValue }
        _modify { yield &writableDroppingHead().fields.body }
    }
    /// Whether the head adds the JSON `Content-Type` to a non-empty body that has none (true):
    /// mockstack's own answers are JSON. False sends the fields as they are, for an answer
    /// passed on from elsewhere (the proxy's upstream), whose missing type is its own.
    public var defaultsContentType: Bool {
        @inlinable get { storage.fields.defaultsContentType }
        set { writableDroppingHead().fields.defaultsContentType = newValue }
    }
    public var delivery: Delivery
    /// What answered — an operation, a service method, a fixture — for the request journal;
    /// never sent, and not part of equality.
    public var operation: String?

    /// Internal, not private: the getters above are inlined into other modules, so that reading
    /// `request.body.count` there borrows the box's array instead of calling a getter that
    /// retains it and releasing it after (each read from another module was a call and a
    /// reference count, several per request).
    @usableFromInline var storage: Storage

    /// The box, made this value's own first if another value shares it, with the head rendered
    /// ahead of time dropped: the caller is about to change what it was rendered from.
    private mutating func writableDroppingHead() -> Storage {
        if isKnownUniquelyReferenced(&storage) {
            storage.preparedHead = nil
        } else {
            storage = storage.copy()
        }
        return storage
    }

    /// Changed only through ``writableDroppingHead()`` or before it is shared, that is only while one
    /// value holds it, so sharing it between threads is safe, and no two accesses to a field
    /// can overlap (hence no runtime exclusivity checks, as in `HTTPRequest`'s box).
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline @safe @exclusivity(unchecked) var fields: Fields
        /// The head rendered ahead of time (``preparingHead()``).
        @usableFromInline @safe @exclusivity(unchecked) var preparedHead: RenderedHead?

        init(_ fields: Fields) {
            self.fields = fields
        }

        /// The same fields in a box of their own, without the prepared head (whoever copies is
        /// about to change what it was rendered from, or to render it anew).
        func copy() -> Storage { Storage(fields) }
    }

    /// Every field that is sent, declared here once: the box, its copy and equality take them whole.
    @usableFromInline struct Fields: Equatable, Sendable {
        @usableFromInline var status: Int
        @usableFromInline var reason: String?
        @usableFromInline var headers: HTTPHeaders
        @usableFromInline var body: [UInt8]
        @usableFromInline var defaultsContentType = true
    }

    public init(
        status: Int,
        reason: String? = nil,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        delivery: Delivery = .immediate
    ) {
        storage = Storage(Fields(status: status, reason: reason, headers: headers, body: body))
        self.delivery = delivery
    }

    /// A JSON response with `Content-Type: application/json; charset=utf-8`.
    public static func json(_ status: Int, _ value: JSONValue, headers: HTTPHeaders = [:]) -> HTTPResponse {
        json(status, bytes: value.encoded(), headers: headers)
    }

    /// A JSON response from bytes that are already encoded. Most bring no headers of their
    /// own: those share one `Content-Type` list rather than each growing one.
    public static func json(_ status: Int, bytes: [UInt8], headers: HTTPHeaders = [:]) -> HTTPResponse {
        guard headers.count > 0 else { return HTTPResponse(status: status, headers: .jsonContentType, body: bytes) }
        var all = headers
        if !all.contains("Content-Type") { all.add([.jsonContentType]) }
        return HTTPResponse(status: status, headers: all, body: bytes)
    }

    /// The status line and headers as bytes: rendered ahead of time by ``preparingHead()``, or now.
    public var head: RenderedHead { storage.preparedHead ?? RenderedHead(self) }

    /// The same response with its head rendered once, for answers served many times.
    public func preparingHead() -> HTTPResponse {
        var prepared = self
        // A box of its own, so that the head is not added to one this value shares.
        prepared.storage = storage.copy()
        prepared.storage.preparedHead = RenderedHead(self)
        return prepared
    }

    /// Equal when they would send the same thing; a prepared head is only a cache.
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        (lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields) && lhs.delivery == rhs.delivery
    }

    /// The reason phrase that will be sent.
    public var reasonPhrase: String { reason ?? HTTPStatus.phrase(for: status) }

    /// The fields, for test failures and the debugger (the box would otherwise hide them).
    public var debugDescription: String {
        "HTTPResponse(\(status) \(reasonPhrase), headers: \(headers.fields.map { "\($0.name): \($0.value)" }), "
            + """
            body: \(body.count) bytes \(String(decoding: body.prefix(200), as: UTF8.self).debugDescription), \
            delivery: \(delivery))
            """
    }

    /// Whether this status forbids a body (1xx, 204, 304).
    public var forbidsBody: Bool { HTTPStatus.forbidsBody(status) }
}

extension HTTPHeaders.Field {
    /// `Content-Type: application/json; charset=utf-8`, its line rendered once.
    public static let jsonContentType = HTTPHeaders.Field(name: "Content-Type", value: MediaType.json).prepared()
}

extension HTTPHeaders {
    /// The JSON `Content-Type` alone: the headers of most JSON answers, one shared list.
    public static let jsonContentType = HTTPHeaders([.jsonContentType])

    /// Whether these are the JSON `Content-Type` alone: a layer adding fixed fields to most
    /// answers can then hand out one list made ahead instead of growing a new one each time.
    public var areJSONContentTypeAlone: Bool { count == 1 && fields[0] == .jsonContentType }
}
