import MockStackCore

/// `throwType`: test.servicestack.net's `ThrowType` service (docs/servicestack.md#error-services). The request's `Type`
/// names the exception, matched exactly; `Message` replaces the default message.
public struct ThrowTypeBehaviour: OperationBehaviour {
    public init() {}

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let type = call.request.value(named: "Type").text
        let given = call.request.value(named: "Message").text
        func message(_ fallback: String) -> String { given ?? fallback }
        switch type {
        case nil, "Exception"?: throw ServiceError(.exception, message("Server Error"))
        case "NotFound"?: throw ServiceError.http(404, message("What you're looking for isn't here"))
        case "Unauthorized"?: throw ServiceError.http(401, message("You shall not pass!"))
        case "Conflict"?: throw ServiceError.http(409, message("We haz Conflict!"))
        case "NotImplementedException"?:
            throw ServiceError(.notImplemented, message("Not implemented yet, try again later"))
        case "ArgumentException"?: throw ServiceError(.argument, message("Client Argument Error"))
        case "AuthenticationException"?: throw ServiceError(.authentication, message("We haz issue Authenticatting"))
        case "UnauthorizedAccessException"?: throw ServiceError(.unauthorizedAccess, message("You shall not pass!"))
        // Misspelt exactly as the real service's switch spells it; the correct spelling echoes.
        case "OptimisticConcurrencyExceptieon"?:
            throw ServiceError(.optimisticConcurrency, message("Sorry too optimistic"))
        case "UnhandledException"?: throw ServiceError(.fileNotFound, message("File was never here"))
        case "RawResponse"?:
            // A bare 418 whose reason phrase carries the message, no body.
            return ServiceResult(.response(HTTPResponse(status: 418, reason: message("On a tea break"))))
        default:
            // The service returns its request DTO unchanged.
            return ServiceResult(.dto(.object(call.request)), shape: .object(call.operation.requestType.reference))
        }
    }
}

/// `error`: an operation that always fails (or, with `returns`, answers 200 with the same
/// `ResponseStatus` in its body): `ThrowHttpError`, `Throw404`, `ThrowCustom400`,
/// `ReturnCustom400`, `ThrowBusinessError`. Status, errorCode and message are templates.
public struct ErrorBehaviour: OperationBehaviour {
    /// The .NET exception type: `HttpError`, a framework exception name, or any custom name.
    public var exception: String
    public var status: TemplateString
    public var errorCode: TemplateString?
    public var message: TemplateString
    public var fieldErrors: [FieldError]
    /// Answer 200 with the status in the response DTO instead of throwing.
    public var returnsStatus: Bool
    /// The error supplies its own body, so DebugMode adds no stack trace.
    public var omitsStackTrace: Bool

    public init(
        exception: String, status: TemplateString, errorCode: TemplateString?, message: TemplateString,
        fieldErrors: [FieldError], returnsStatus: Bool, omitsStackTrace: Bool
    ) {
        self.exception = exception
        self.status = status
        self.errorCode = errorCode
        self.message = message
        self.fieldErrors = fieldErrors
        self.returnsStatus = returnsStatus
        self.omitsStackTrace = omitsStackTrace
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let scope = TemplateScope(call: call)
        // A status from the request (`{{Status}}`) that is no final status is a 500: a 1xx
        // sent as the answer would break the connection's framing.
        let code =
            status.render(scope).flatMap { Int($0) }.flatMap { HTTPStatus.finalStatuses.contains($0) ? $0 : nil } ?? 500
        let message = message.render(scope) ?? exception
        var error: ServiceError
        if exception == "HttpError" {
            error = ServiceError.http(code, message)
        } else {
            error = ServiceError(ServiceError.Kind(exceptionName: exception, status: code), message)
        }
        if let code = errorCode?.render(scope) { error.errorCode = code }
        error.fieldErrors = fieldErrors
        error.omitsStackTrace = omitsStackTrace
        guard returnsStatus else { throw error }
        var responseStatus = DTOObject()
        responseStatus["ErrorCode"] = .string(error.errorCode)
        responseStatus["Message"] = .string(error.message)
        responseStatus["Errors"] = .list(
            fieldErrors.map { field in
                .object(
                    DTOObject([
                        ("ErrorCode", .string(field.errorCode)), ("FieldName", .string(field.fieldName)),
                        ("Message", .string(field.message)),
                    ]))
            })
        return ServiceResult(.dto(.object(DTOObject([("ResponseStatus", .object(responseStatus))]))))
    }
}

extension ServiceError.Kind {
    /// The kind for a .NET exception's name (short or full); unknown names are custom
    /// exceptions with the given status.
    init(exceptionName name: String, status: Int) {
        let short = name.split(separator: ".").last.map(String.init) ?? name
        switch short {
        case "Exception": self = .exception
        case "NotImplementedException": self = .notImplemented
        case "NotSupportedException": self = .notSupported
        case "ArgumentException": self = .argument
        case "ArgumentNullException": self = .argumentNull
        case "SerializationException": self = .serialization
        case "FormatException": self = .format
        case "FileNotFoundException": self = .fileNotFound
        case "AuthenticationException": self = .authentication
        case "UnauthorizedAccessException": self = .unauthorizedAccess
        case "OptimisticConcurrencyException": self = .optimisticConcurrency
        default: self = .custom(fullName: name, status: status)
        }
    }
}
