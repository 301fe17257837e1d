/// An error a service raised, described the way ServiceStack turns a .NET exception into an
/// HTTP status and a `ResponseStatus` (docs/servicestack.md#error-responses).
public struct ServiceError: Error, Sendable, Equatable {
    /// The kinds of exception the emulated services raise, with their .NET full names.
    public enum Kind: Sendable, Equatable {
        case exception
        case notImplemented
        case notSupported
        case argument
        case argumentNull
        case serialization
        case format
        case fileNotFound
        case authentication
        case unauthorizedAccess
        case optimisticConcurrency
        /// `HttpError` with an explicit status; `errorCode` says which factory made it.
        case httpError(status: Int)
        /// Any other exception type, by full name (`MyApp.Custom400Exception`), with its status.
        case custom(fullName: String, status: Int)

        /// The HTTP status, per the first matching row of the exception table.
        public var status: Int {
            switch self {
            case .notImplemented, .notSupported: 405
            case .fileNotFound: 404
            case .argument, .argumentNull, .serialization, .format: 400
            case .authentication: 401
            case .unauthorizedAccess: 403
            case .optimisticConcurrency: 409
            case .httpError(let status), .custom(_, let status): status
            case .exception: 500
            }
        }

        /// The full .NET type name, for `errorCode` (its last component) and the stack trace.
        public var fullName: String {
            switch self {
            case .exception: "System.Exception"
            case .notImplemented: "System.NotImplementedException"
            case .notSupported: "System.NotSupportedException"
            case .argument: "System.ArgumentException"
            case .argumentNull: "System.ArgumentNullException"
            case .serialization: "System.Runtime.Serialization.SerializationException"
            case .format: "System.FormatException"
            case .fileNotFound: "System.IO.FileNotFoundException"
            case .authentication: "ServiceStack.AuthenticationException"
            case .unauthorizedAccess: "System.UnauthorizedAccessException"
            case .optimisticConcurrency: "ServiceStack.Data.OptimisticConcurrencyException"
            case .httpError: "ServiceStack.HttpError"
            case .custom(let fullName, _): fullName
            }
        }

        /// The type name without its namespace, which is the default `errorCode`.
        public var typeName: String {
            let name = fullName
            guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return name }
            return String(name[name.utf8.index(after: dot)...])
        }
    }

    public var kind: Kind
    public var errorCode: String
    public var message: String
    public var fieldErrors: [FieldError]
    /// Set for errors that carry their own body and so get no stack trace (validation, and
    /// errors that supply a ResponseStatus of their own).
    public var omitsStackTrace: Bool

    public var status: Int { kind.status }

    /// An exception of `kind`; `errorCode` defaults to its type name (`ArgumentException`).
    public init(
        _ kind: Kind, _ message: String, errorCode: String? = nil, fieldErrors: [FieldError] = [],
        omitsStackTrace: Bool = false
    ) {
        self.kind = kind
        self.message = message
        self.errorCode = errorCode ?? kind.typeName
        self.fieldErrors = fieldErrors
        self.omitsStackTrace = omitsStackTrace
    }

    /// `HttpError(HttpStatusCode.X, message)` and its factories: errorCode is the status name.
    public static func http(_ status: Int, _ message: String) -> ServiceError {
        ServiceError(.httpError(status: status), message, errorCode: HTTPStatusName.name(for: status))
    }

    /// `HttpError(int, text)`: errorCode and message are both the text.
    public static func http(_ status: Int, text: String) -> ServiceError {
        ServiceError(.httpError(status: status), text, errorCode: text)
    }

    /// `ArgumentException(message, paramName)`: the field error carries the text before
    /// ` (Parameter '…')`, the top-level message keeps it all.
    public static func argument(_ kind: Kind, _ message: String, parameter: String) -> ServiceError {
        let full = "\(message) (Parameter '\(parameter)')"
        return ServiceError(
            kind, full, fieldErrors: [FieldError(errorCode: kind.typeName, fieldName: parameter, message: message)])
    }

    /// The unknown-operation answer of the predefined routes.
    public static let operationDoesNotExist = ServiceError(
        .notImplemented, "The operation does not exist for this service")
}

/// One entry of `ResponseStatus.errors`.
public struct FieldError: Sendable, Equatable {
    public var errorCode: String
    public var fieldName: String
    public var message: String
    /// Ordered `meta` pairs (FluentValidation's `PropertyName`, `PropertyValue`, …); omitted when empty.
    public var meta: [(key: String, value: String)]

    public init(errorCode: String, fieldName: String, message: String, meta: [(key: String, value: String)] = []) {
        self.errorCode = errorCode
        self.fieldName = fieldName
        self.message = message
        self.meta = meta
    }

    public static func == (lhs: FieldError, rhs: FieldError) -> Bool {
        lhs.errorCode == rhs.errorCode && lhs.fieldName == rhs.fieldName && lhs.message == rhs.message
            && lhs.meta.elementsEqual(rhs.meta) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// .NET's `HttpStatusCode` member names, which `HttpError` factories use as error codes.
enum HTTPStatusName {
    static func name(for status: Int) -> String {
        switch status {
        case 400: "BadRequest"
        case 401: "Unauthorized"
        case 402: "PaymentRequired"
        case 403: "Forbidden"
        case 404: "NotFound"
        case 405: "MethodNotAllowed"
        case 406: "NotAcceptable"
        case 408: "RequestTimeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "PreconditionFailed"
        case 413: "RequestEntityTooLarge"
        case 415: "UnsupportedMediaType"
        case 417: "ExpectationFailed"
        case 422: "UnprocessableEntity"
        case 429: "TooManyRequests"
        case 500: "InternalServerError"
        case 501: "NotImplemented"
        case 502: "BadGateway"
        case 503: "ServiceUnavailable"
        case 504: "GatewayTimeout"
        default: String(status)
        }
    }
}
