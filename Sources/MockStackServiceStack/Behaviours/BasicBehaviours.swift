import MockStackCore

/// `echo`: the response DTO gets every request property of the same name (case-insensitive);
/// an operation that returns its own request type returns the request as bound.
public struct EchoBehaviour: OperationBehaviour {
    public init() {}

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        try ServiceResult(.dto(call.conformed(.object(call.request))))
    }
}

/// `void`: 204 No Content.
public struct VoidBehaviour: OperationBehaviour {
    public init() {}

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult { .void }
}

/// `template`: a JSON response (or, with `text`, a raw string such as `HelloString`'s) built
/// from request values; optional templated `headers`.
public struct TemplateBehaviour: OperationBehaviour {
    public enum Output: Sendable {
        case json(ResponseTemplate)
        case text(TemplateString, contentType: String)
    }

    public let output: Output
    public let headers: [(name: String, value: TemplateString)]
    /// Whether `output` was resolved against the return type, so its result needs no reading.
    private let isTyped: Bool

    public init(output: Output, headers: [(name: String, value: TemplateString)] = []) {
        self.init(output: output, headers: headers, isTyped: false)
    }

    private init(output: Output, headers: [(name: String, value: TemplateString)], isTyped: Bool) {
        self.output = output
        self.headers = headers
        self.isTyped = isTyped
    }

    public func prepared(returnShape: ValueShape?, coercion: ValueCoercion) -> any OperationBehaviour {
        guard case .json(let template) = output, let returnShape,
            let typed = template.resolved(against: returnShape, coercion: coercion)
        else { return self }
        return TemplateBehaviour(output: .json(typed), headers: headers, isTyped: true)
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let scope = TemplateScope(call: call)
        let headers =
            self.headers.isEmpty
            ? HTTPHeaders()
            : HTTPHeaders(
                self.headers.compactMap { header in
                    header.value.render(scope).map { HTTPHeaders.Field(name: header.name, value: $0) }
                })
        switch output {
        case .json(let template):
            let value = template.evaluate(scope) ?? .null
            return ServiceResult(.dto(isTyped ? value : try call.conformed(value)), headers: headers)
        case .text(let template, let contentType):
            guard let text = template.render(scope) else { return ServiceResult(.empty, status: 204, headers: headers) }
            return ServiceResult(.raw(Array(text.utf8), contentType: contentType), headers: headers)
        }
    }
}

/// `rawBody`: for DTOs with a `Stream` property (`SendJson`, `SendText`): the request body
/// back verbatim, with its Content-Type (or a templated one) and templated headers.
public struct RawBodyBehaviour: OperationBehaviour {
    public let contentType: TemplateString?
    public let headers: [(name: String, value: TemplateString)]

    public init(contentType: TemplateString?, headers: [(name: String, value: TemplateString)]) {
        self.contentType = contentType
        self.headers = headers
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let scope = TemplateScope(call: call)
        let headers = HTTPHeaders(
            headers.compactMap { header in
                header.value.render(scope).map { HTTPHeaders.Field(name: header.name, value: $0) }
            })
        let type = contentType?.render(scope) ?? call.http.headers["Content-Type"] ?? MediaType.octetStream
        return ServiceResult(.raw(call.http.body, contentType: type), headers: headers)
    }
}

extension ServiceCall {
    /// A value read as the operation's return type.
    func conformed(_ value: DTOValue) throws(ServiceError) -> DTOValue {
        guard let shape = operation.returnShape else { return value }
        guard let result = context.coercion.conform(value, to: shape) else {
            throw ServiceError(
                .exception, "mockstack: the response configured for \(operation.name) does not fit its return type")
        }
        return result
    }
}
