public import MockStackJSON

extension RequestPattern {
    /// `GET` of exactly this path.
    public static func get(_ path: String) -> RequestPattern { RequestPattern(method: "GET", path: .equalTo(path)) }
    /// `POST` to exactly this path.
    public static func post(_ path: String) -> RequestPattern { RequestPattern(method: "POST", path: .equalTo(path)) }
    /// `PUT` to exactly this path.
    public static func put(_ path: String) -> RequestPattern { RequestPattern(method: "PUT", path: .equalTo(path)) }
    /// `PATCH` to exactly this path.
    public static func patch(_ path: String) -> RequestPattern { RequestPattern(method: "PATCH", path: .equalTo(path)) }
    /// `DELETE` of exactly this path.
    public static func delete(_ path: String) -> RequestPattern {
        RequestPattern(method: "DELETE", path: .equalTo(path))
    }
    /// Any method, exactly this path.
    public static func path(_ path: String) -> RequestPattern { RequestPattern(path: .equalTo(path)) }
    /// Any method, paths that start with this prefix.
    public static func prefix(_ prefix: String) -> RequestPattern { RequestPattern(pathPrefix: prefix) }
    /// Whatever reaches this operation (`Hello`, `messages.find`), by any route.
    public static func operation(_ name: String) -> RequestPattern { RequestPattern(operation: name) }
    /// Every request.
    public static var any: RequestPattern { RequestPattern() }
}

extension StubResponse {
    /// This status and no body.
    public static func status(_ status: Int) -> StubResponse { StubResponse(status: status) }
    /// `value` as `application/json`, with `status`.
    public static func json(_ value: JSONValue, status: Int = 200) -> StubResponse {
        StubResponse(status: status, body: .json(value))
    }
    /// `text` as `text/plain`, with `status`.
    public static func text(_ text: String, status: Int = 200) -> StubResponse {
        StubResponse(status: status, body: .text(text))
    }
    /// No answer but this connection fault (`.reset`, `.hang`, …).
    public static func fault(_ fault: FaultName) -> StubResponse { StubResponse(fault: fault) }
}
