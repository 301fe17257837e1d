import MockStackCore

/// Which header fields cross the proxy. Hop-by-hop fields (RFC 9110 §7.6.1) belong to one
/// connection and are never forwarded; the framing ones are the sending side's to write; the
/// `X-MockStack-*` fields are asks of mockstack itself (faults, delays).
enum ForwardedHeaders {
    /// Fields of the connection, not of the message.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// The request's fields as they go upstream: hop-by-hop fields, `Host` (the target's own is
    /// sent), `Content-Length` and `Expect` (the client library writes them), mockstack's own, and
    /// `Accept-Encoding` (the upstream is asked for `identity`, so that what is forwarded and
    /// recorded is the body itself) left out.
    static func upstream(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        headers.fields.compactMap { field in
            let name = field.name.lowercased()
            if hopByHop.contains(name) || name == "host" || name == "content-length" || name == "expect" || name == "accept-encoding"
                || name.hasPrefix("x-mockstack-") { return nil }
            return (field.name, field.value)
        }
    }

    /// The upstream answer's fields as they go back: hop-by-hop and framing fields left out (the
    /// transport frames the answer), and `Content-Encoding` (the body arrives decoded).
    static func downstream(_ fields: [(name: String, value: String)]) -> HTTPHeaders {
        HTTPHeaders(fields.compactMap { field in
            let name = field.name.lowercased()
            if hopByHop.contains(name) || name == "content-length" || name == "content-encoding" { return nil }
            return HTTPHeaders.Field(name: field.name, value: field.value)
        })
    }
}
