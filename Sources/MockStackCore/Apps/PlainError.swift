/// The JSON error shape of mockstack's own endpoints (control plane, static apps, transport-level
/// rejections): `{"status":404,"error":"Not Found","message":"…"}`.
///
/// Emulated ServiceStack and Feathers apps answer in their own servers' formats instead.
public enum PlainError {
    public static func body(status: Int, message: String) -> [UInt8] {
        JSONValue.object([
            "status": .number(JSONNumber(status)),
            "error": .string(HTTPStatus.phrase(for: status)),
            "message": .string(message),
        ]).encoded()
    }

    public static func response(_ status: Int, _ message: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        .json(status, bytes: body(status: status, message: message), headers: headers)
    }

    /// 405 with an `Allow` header listing what the resource does accept.
    public static func methodNotAllowed(_ method: HTTPMethod, path: String, allowed: [String]) -> HTTPResponse {
        let verb = method == .unknown ? "This method" : method.rawValue
        return response(
            405,
            "\(verb) is not allowed on \(path); allowed: \(allowed.joined(separator: ", "))",
            headers: ["Allow": allowed.joined(separator: ", ")]
        )
    }
}
