import MockStackCore

/// Writes a ``ServiceError`` as ServiceStack does (spec §5): the status from the exception
/// table, a `ResponseStatus` inside the operation's error wrapper, value-type defaults of that
/// wrapper still written, and in DebugMode a `stackTrace`.
struct ErrorRenderer {
    let context: AppContext

    /// - Parameters:
    ///   - operation: the operation that failed, or nil when the request named none.
    ///   - request: the bound request DTO, when binding got that far (it heads the stack trace).
    func response(for error: ServiceError, operation: ServiceOperation?, request: DTOObject?, verb: String, jsconfig: String?, now: DateTimeValue) -> HTTPResponse {
        let wrapper = operation?.errorWrapper ?? .object(.named("ErrorResponse", []))
        var status = DTOObject()
        status["ErrorCode"] = .string(error.errorCode)
        status["Message"] = .string(Self.htmlEncodedIfScript(error.message))
        if context.host.debugMode, !error.omitsStackTrace {
            status["StackTrace"] = .string(stackTrace(for: error, operation: operation, request: request, verb: verb, now: now))
        }
        status["Errors"] = .list(error.fieldErrors.map { field in
            var entry = DTOObject()
            entry["ErrorCode"] = .string(field.errorCode)
            entry["FieldName"] = .string(field.fieldName)
            entry["Message"] = .string(field.message)
            if !field.meta.isEmpty { entry["Meta"] = .map(field.meta.map { DTOMapEntry(key: $0.key, value: .string($0.value)) }) }
            return .object(entry)
        })
        var body = DTOObject()
        var propertyName = "ResponseStatus"
        if case .object(let reference) = wrapper, let name = context.catalog.object(reference)?.responseStatusProperty?.name { propertyName = name }
        body[propertyName] = .object(status)
        let writer = context.writer(operation?.dialect ?? context.host.dialect, jsconfig: jsconfig, emitEmptyCollections: false)
        return .json(error.status, bytes: writer.bytes(.object(body), as: wrapper))
    }

    /// `"[{Op}: {UtcNow}]:\n[REQUEST: {JSV}]\n"` (only with a request DTO), then the exception's
    /// `ToString()` (nothing for an `HttpError`) and a line break. The exact text is Unverified;
    /// clients only check that it is there.
    func stackTrace(for error: ServiceError, operation: ServiceOperation?, request: DTOObject?, verb: String, now: DateTimeValue) -> String {
        var trace = ""
        if let operation, let request {
            let jsv = JSVWriter(catalog: context.catalog).text(.object(request), as: .object(operation.requestType.reference))
            trace += "[\(operation.name): \(now.dotNetDefaultText)]:\n[REQUEST: \(jsv)]\n"
        }
        if case .httpError = error.kind {} else {
            trace += "\(error.kind.fullName): \(error.message)\n"
            if let operation {
                let method = operation.actions.contains(verb) ? verb.prefix(1) + verb.dropFirst().lowercased() : "Any"
                trace += "   at \(operation.serviceClass).\(method)(\(operation.name) request)"
            } else {
                trace += "   at ServiceStack.Host.ServiceController.Execute(Object requestDto, IRequest req)"
            }
        }
        return trace + "\n"
    }

    /// ServiceStack HTML-encodes a message only when it contains `<script`.
    static func htmlEncodedIfScript(_ message: String) -> String {
        guard message.utf8.contains(UInt8(ascii: "<")), message.lowercased().contains("<script") else { return message }
        var encoded = ""
        for character in message {
            switch character {
            case "<": encoded += "&lt;"
            case ">": encoded += "&gt;"
            case "&": encoded += "&amp;"
            case "\"": encoded += "&quot;"
            case "'": encoded += "&#39;"
            default: encoded.append(character)
            }
        }
        return encoded
    }
}
