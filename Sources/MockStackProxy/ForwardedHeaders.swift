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
        var forwarded = HTTPHeaders(
            headers.fields.filter { field in
                let name = field.name.lowercased()
                return
                    !(hopByHop.contains(name) || named.contains(name) || name == "host" || name == "content-length"
                    || name == "expect"
                    || name == "accept-encoding" || name.hasPrefix("x-mockstack-"))
            })
        forwarded.add("Accept-Encoding", "identity")
        return forwarded
    }

    /// The upstream answer's fields as they go back: hop-by-hop fields, those its `Connection`
    /// names and framing fields left out (the transport frames the answer), and each control
    /// byte in a value (HTAB aside) made a space, as RFC 9110 §5.5 has a recipient do before
    /// forwarding: an escape or a DEL would otherwise reach the client raw (libcurl refuses a NUL
    /// itself). `Content-Encoding` stays: the body goes back as it came.
    static func downstream(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = connectionOptions(headers)
        return HTTPHeaders(
            headers.fields.compactMap { field in
                let name = field.name.lowercased()
                if hopByHop.contains(name) || named.contains(name) || name == "content-length" { return nil }
                guard field.value.utf8.contains(where: isControl) else { return field }
                let spaced = field.value.utf8.map { isControl($0) ? UInt8(ascii: " ") : $0 }
                return HTTPHeaders.Field(name: field.name, value: String(decoding: spaced, as: UTF8.self))
            })
    }

    /// A control byte a field value may not hold: C0 controls but HTAB, and DEL.
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
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

extension Substring {
    /// Without the spaces and tabs at either end (optional whitespace around a list's items).
    fileprivate func trimmingSpaceAndTab() -> Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
