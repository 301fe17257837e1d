import MockStackCore

/// Which header fields cross the proxy. Hop-by-hop fields (RFC 9110 §7.6.1) belong to one
/// connection and are never forwarded, nor are the fields a `Connection` header names (the
/// sender declares them its connection's own); the framing ones are the sending side's to
/// write; the `X-MockStack-*` fields are asks of mockstack itself (faults, delays).
enum ForwardedHeaders {
    /// Fields of the connection, not of the message.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// The request's fields as they go upstream: hop-by-hop fields and those `Connection` names,
    /// `Host` (the target's own is sent), `Content-Length` and `Expect` (the client library
    /// writes them, and sends no `Expect`), mockstack's own, and `Accept-Encoding` (the upstream
    /// is asked for `identity`, so that what is forwarded and recorded is the body itself) left out.
    static func upstream(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = connectionOptions(headers)
        var forwarded = HTTPHeaders(headers.fields.filter { field in
            let name = field.name.lowercased()
            return !(hopByHop.contains(name) || named.contains(name) || name == "host" || name == "content-length" || name == "expect"
                || name == "accept-encoding" || name.hasPrefix("x-mockstack-"))
        })
        forwarded.add("Accept-Encoding", "identity")
        return forwarded
    }

    /// The upstream answer's fields as they go back: hop-by-hop fields, those its `Connection`
    /// names and framing fields left out (the transport frames the answer). `Content-Encoding`
    /// stays: the body goes back as it came.
    static func downstream(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = connectionOptions(headers)
        return HTTPHeaders(headers.fields.filter { field in
            let name = field.name.lowercased()
            return !(hopByHop.contains(name) || named.contains(name) || name == "content-length")
        })
    }

    /// The field names every `Connection` field lists (comma-separated, any case), lowercased:
    /// empty, and nothing allocated, when there is no `Connection`, as for most requests.
    static func connectionOptions(_ headers: HTTPHeaders) -> Set<String> {
        let values = headers.values(for: "Connection")
        guard !values.isEmpty else { return [] }
        var names: Set<String> = []
        for value in values {
            for option in value.split(separator: ",") {
                let name = option.trimmingSpaceAndTab().lowercased()
                if !name.isEmpty { names.insert(name) }
            }
        }
        return names
    }
}

private extension Substring {
    /// Without the spaces and tabs at either end (optional whitespace around a list's items).
    func trimmingSpaceAndTab() -> Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
