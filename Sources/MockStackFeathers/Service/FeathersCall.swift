public import MockStackCore

/// One service method call as any transport hands it over: REST builds it from a verb, a path, a
/// query string and a body; the socket from an event's arguments, with the query's JSON types kept.
public struct FeathersCall: Sendable, Equatable {
    public var method: ServiceMethod
    /// The record's id, as the transport received it (REST: the path's last segment; socket: the
    /// argument written as text); nil for a collection call (`find`, `create`, multi).
    public var id: String?
    public var data: JSONValue
    public var query: JSONObject
    /// The caller's access token: REST's `Authorization` header, or what a socket connection
    /// authenticated with.
    public var token: String?

    public init(
        method: ServiceMethod, id: String? = nil, data: JSONValue = .null, query: JSONObject = [:], token: String? = nil
    ) {
        self.method = method
        self.id = id
        self.data = data
        self.query = query
        self.token = token
    }
}
