/// One Server-Sent Event as ServiceStack writes it (docs/servicestack-server-events.md#framing):
/// `id: <n>\ndata: <selector> <body>\n\n`, LF only, one `data` line, nothing else.
enum ServerEventFrame {
    /// The frame numbered `id` carrying `payload` (`selector`, a space, the body).
    static func bytes(id: Int, payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(size(ofPayload: payload.count) + 20)
        append(id: id, payload: payload, to: &frame)
        return frame
    }

    /// Appends the frame numbered `id` carrying `payload` to `output`.
    static func append(id: Int, payload: [UInt8], to output: inout [UInt8]) {
        output += idPrefix
        output += String(id).utf8
        output += dataPrefix
        output += payload
        output += end
    }

    /// A frame's size on the wire without its id's digits.
    static func size(ofPayload count: Int) -> Int { idPrefix.count + dataPrefix.count + count + end.count }

    /// `<selector> <body>`, or `<channel>@<selector> <body>` for a channel-wide notice. A missing
    /// body keeps the space, as ServiceStack's does.
    static func payload(selector: String, channel: String? = nil, body: [UInt8]) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(selector.utf8.count + (channel?.utf8.count ?? 0) + body.count + 2)
        if let channel {
            payload += channel.utf8
            payload.append(UInt8(ascii: "@"))
        }
        payload += selector.utf8
        payload.append(UInt8(ascii: " "))
        payload += body
        return payload
    }

    /// Why a selector or channel name cannot go on the wire, or nil when it can: `@` splits a
    /// channel from its selector and a line break would end the `data` line.
    static func problem(withName name: String, kind: String) -> String? {
        if name.isEmpty { return "The \(kind) is empty" }
        if name.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == 10 || $0 == 13 }) {
            return "The \(kind) '\(name)' holds '@' or a line break, which Server Events cannot carry"
        }
        if kind == "selector", name.utf8.contains(UInt8(ascii: " ")) {
            return "The selector '\(name)' holds a space, which ends a selector on the wire"
        }
        return nil
    }

    private static let idPrefix = Array("id: ".utf8)
    private static let dataPrefix = Array("\ndata: ".utf8)
    private static let end = Array("\n\n".utf8)
}
