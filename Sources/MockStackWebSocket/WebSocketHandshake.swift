public import MockStackCore
import MockStackDigest

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The opening handshake (RFC 6455 §4.2): checks a request and answers it with the `101` that
/// hands the connection to a ``WebSocket``, or with the refusal the request deserves.
///
/// ```swift
/// ClosureResponder { request in
///     WebSocketHandshake.response(to: request, delegate: EchoDelegate())
/// }
/// ```
///
/// Refusals (JSON bodies, ``PlainError``): a method other than GET is 405 with `Allow: GET`; a
/// request without `Upgrade: websocket` and a `Connection` listing `upgrade` is 426 with
/// `Upgrade: websocket`; a `Sec-WebSocket-Version` other than 13 is 426 with
/// `Sec-WebSocket-Version: 13`; a `Sec-WebSocket-Key` that is not the base64 of 16 bytes is
/// 400. No extension is ever agreed (`Sec-WebSocket-Extensions` is ignored, so no frame may
/// set a reserved bit). The transport refuses an HTTP/1.0 request's upgrade with a 400.
public enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the key.
    public static let keyGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64 of the SHA-1 of the key and the GUID.
    public static func acceptValue(forKey key: String) -> String {
        Data(Digest.sha1(Array((key + keyGUID).utf8))).base64EncodedString()
    }

    /// The 101 that upgrades `request` to a WebSocket served by `delegate`, or the refusal.
    public static func response(
        to request: HTTPRequest, configuration: WebSocketConfiguration = WebSocketConfiguration(),
        delegate: any WebSocketDelegate
    ) -> HTTPResponse {
        if let refusal = refusal(of: request) { return refusal }
        let key = request.headers["Sec-WebSocket-Key"].map { String($0.trimmingASCIISpace()) } ?? ""
        let offered = tokens(request.headers.values(for: "Sec-WebSocket-Protocol"), lowercased: false)
        let subprotocol = configuration.subprotocols.first { offered.contains($0) }
        var headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": acceptValue(forKey: key),
        ]
        if let subprotocol { headers.add("Sec-WebSocket-Protocol", subprotocol) }
        let upgrade = ConnectionUpgrade(unsentOutputLimit: configuration.unsentOutputLimit) {
            WebSocket(request: request, subprotocol: subprotocol, configuration: configuration, delegate: delegate)
        }
        return HTTPResponse(status: 101, headers: headers, delivery: .upgrade(upgrade))
    }

    /// The answer to a request that is not a valid handshake; nil for a valid one.
    public static func refusal(of request: HTTPRequest) -> HTTPResponse? {
        guard request.method == .get else {
            return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["GET"])
        }
        let upgrades = tokens(request.headers.values(for: "Upgrade"))
        let connection = tokens(request.headers.values(for: "Connection"))
        guard upgrades.contains("websocket"), connection.contains("upgrade") else {
            return PlainError.response(
                426, "This is a WebSocket endpoint: the request needs 'Upgrade: websocket' and 'Connection: Upgrade'",
                headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        }
        guard request.headers["Sec-WebSocket-Version"]?.trimmingASCIISpace() == "13" else {
            return PlainError.response(
                426, "Unsupported Sec-WebSocket-Version: only 13 is spoken", headers: ["Sec-WebSocket-Version": "13"])
        }
        guard let key = request.headers["Sec-WebSocket-Key"].map({ String($0.trimmingASCIISpace()) }),
            Data(base64Encoded: key)?.count == 16
        else {
            return PlainError.response(400, "Sec-WebSocket-Key must be the base64 of 16 bytes")
        }
        return nil
    }

    /// The comma-separated tokens of a field's values, trimmed (and lowercased).
    private static func tokens(_ values: [String], lowercased: Bool = true) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { token in
            let text = String(token.trimmingASCIISpace())
            return lowercased ? text.lowercased() : text
        }.filter { !$0.isEmpty }
    }
}
