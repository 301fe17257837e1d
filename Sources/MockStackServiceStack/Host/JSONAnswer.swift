import MockStackCore

extension HTTPResponse {
    /// ``HTTPResponse/json(_:bytes:headers:)`` for an operation's answer or error: most bring no
    /// headers of their own, and those share one `Content-Type` list instead of building and
    /// searching a new one for every reply. The same fields either way.
    static func jsonAnswer(_ status: Int, bytes: [UInt8], headers: HTTPHeaders = [:]) -> HTTPResponse {
        guard headers.count == 0 else { return .json(status, bytes: bytes, headers: headers) }
        return HTTPResponse(status: status, headers: jsonContentType, body: bytes)
    }

    private static let jsonContentType = HTTPHeaders([.jsonContentType])
}
