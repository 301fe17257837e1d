public import MockStackCore

/// A FeathersError as the REST transport renders it (docs/feathers.md#errors): `name`, `message`, `code`,
/// `className`, then `data` when there is any, then `errors` — always in v4 (`{}` by default),
/// only when set in v5. The HTTP status is the code.
public struct FeathersError: Error, Sendable, Equatable {
    public var kind: Kind
    public var message: String
    public var data: JSONValue?
    public var errors: JSONValue?
    /// A JavaScript error the error handler turned into a GeneralError: v4 shows it with
    /// `"data":{}` as well as `"errors":{}`.
    public var converted: Bool

    /// As Feathers' constructor builds one: object data gives up its `message` (replacing the
    /// message when not empty) and its `errors` (which become `errors`); the rest is `data`.
    public init(
        _ kind: Kind, _ message: String, data: JSONValue? = nil, errors: JSONValue? = nil, converted: Bool = false
    ) {
        self.kind = kind
        self.message = message
        self.errors = errors
        self.converted = converted
        guard case .object(let object) = data else {
            self.data = data
            return
        }
        if let text = object["message"]?.stringValue, !text.isEmpty { self.message = text }
        if let nested = object["errors"] { self.errors = nested }
        self.data = .object(JSONObject(object.members.filter { $0.key != "message" && $0.key != "errors" }))
    }

    /// The error classes, by HTTP code (identical in v4 and v5).
    public enum Kind: Int, Sendable, CaseIterable {
        case badRequest = 400
        case notAuthenticated = 401
        case paymentError = 402
        case forbidden = 403
        case notFound = 404
        case methodNotAllowed = 405
        case notAcceptable = 406
        case timeout = 408
        case conflict = 409
        case gone = 410
        case lengthRequired = 411
        case unprocessable = 422
        case tooManyRequests = 429
        case generalError = 500
        case notImplemented = 501
        case badGateway = 502
        case unavailable = 503

        public var name: String {
            switch self {
            case .badRequest: "BadRequest"
            case .notAuthenticated: "NotAuthenticated"
            case .paymentError: "PaymentError"
            case .forbidden: "Forbidden"
            case .notFound: "NotFound"
            case .methodNotAllowed: "MethodNotAllowed"
            case .notAcceptable: "NotAcceptable"
            case .timeout: "Timeout"
            case .conflict: "Conflict"
            case .gone: "Gone"
            case .lengthRequired: "LengthRequired"
            case .unprocessable: "Unprocessable"
            case .tooManyRequests: "TooManyRequests"
            case .generalError: "GeneralError"
            case .notImplemented: "NotImplemented"
            case .badGateway: "BadGateway"
            case .unavailable: "Unavailable"
            }
        }

        /// The name in kebab case: `bad-request`, `method-not-allowed`.
        public var className: String {
            var result = ""
            for character in name {
                if character.isUppercase, !result.isEmpty { result.append("-") }
                result += character.lowercased()
            }
            return result
        }
    }

    public var status: Int { kind.rawValue }

    /// The JSON body in the dialect's shape.
    public func json(_ dialect: FeathersDialect) -> JSONValue {
        var object: JSONObject = [
            "name": .string(kind.name), "message": .string(message), "code": .number(JSONNumber(kind.rawValue)),
            "className": .string(kind.className),
        ]
        if let data {
            object["data"] = data
        } else if dialect == .v4, converted {
            object["data"] = .object([:])
        }
        if let errors {
            object["errors"] = errors
        } else if dialect == .v4 {
            object["errors"] = .object([:])
        }
        return .object(object)
    }

    /// The error as a response: `application/json; charset=utf-8`, status = code.
    public func response(_ dialect: FeathersDialect, headers: HTTPHeaders = [:]) -> HTTPResponse {
        .json(status, json(dialect), headers: headers)
    }

    // MARK: The messages of docs/feathers.md#error-messages

    public static func notFound(id: String) -> FeathersError {
        FeathersError(.notFound, "No record found for id '\(id)'")
    }

    /// A write that would take a service's records past their limit. A real memory-adapter
    /// server has no such limit (Unverified what it answers as it runs out of memory); a
    /// refused write is bad input, so a 400 that says what to do.
    /// A write that would take all of an app's records, its sessions' included, past their budget.
    public static func appStoresFull(_ service: String, limit: Int) -> FeathersError {
        FeathersError(
            .badRequest,
            """
            The \(service) service's app holds at most \(limit) bytes of records across its services and sessions (a \
            mockstack limit); remove some or reset the app
            """
        )
    }

    public static func storeFull(_ service: String, limit: Int) -> FeathersError {
        FeathersError(
            .badRequest,
            """
            The \(service) service holds at most \(limit) bytes of records (a mockstack limit, storeLimitBytes); \
            remove some or reset the app
            """
        )
    }

    public static func methodNotSupported(_ method: String) -> FeathersError {
        FeathersError(.methodNotAllowed, "Method `\(method)` is not supported by this endpoint.")
    }

    public static func multiNotAllowed(_ method: String) -> FeathersError {
        FeathersError(.methodNotAllowed, "Can not \(method) multiple entries")
    }

    public static let replaceMultiple = FeathersError(
        .badRequest, "You can not replace multiple instances. Did you mean 'patch'?")
    public static let notAuthenticated = FeathersError(.notAuthenticated, "Not authenticated")
    public static let invalidLogin = FeathersError(.notAuthenticated, "Invalid login")
}
