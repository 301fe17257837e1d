public import MockStackCore

/// A JSON response written in the manifest with request values substituted: strings are
/// ``TemplateString``s; `{"$first": [a, b]}` takes the first alternative whose placeholders all
/// have values; `{"$each": "Names", "$as": {...}}` maps a list property. The result is then
/// read as the operation's return type, so key case and value types follow the metadata.
public indirect enum ResponseTemplate: Sendable {
    case string(TemplateString)
    case first([ResponseTemplate])
    case each(source: String, item: ResponseTemplate)
    case object([(key: String, value: ResponseTemplate)])
    case array([ResponseTemplate])
    case literal(JSONValue)
    /// A template keyed and typed against the return type at load (``resolved(against:coercion:)``):
    /// object keys are C# property names, each leaf converts to its property's type, constants
    /// are converted once.
    case typedString(TemplateString, ValueShape)
    case typedObject([(key: String, value: ResponseTemplate)])
    case constant(DTOValue)

    public init(json: JSONValue) {
        switch json {
        case .string(let text): self = .string(TemplateString(text))
        case .array(let elements): self = .array(elements.map(ResponseTemplate.init(json:)))
        case .object(let object):
            if let alternatives = object["$first"]?.arrayValue {
                self = .first(alternatives.map(ResponseTemplate.init(json:)))
            } else if let source = object["$each"]?.stringValue {
                self = .each(source: source, item: ResponseTemplate(json: object["$as"] ?? "{.}"))
            } else {
                self = .object(object.map { (key: $0.key, value: ResponseTemplate(json: $0.value)) })
            }
        default: self = .literal(json)
        }
    }

    /// The template resolved against the type it produces, so that evaluating it yields values
    /// of that type directly; `nil` when some part cannot be resolved (it is then evaluated
    /// untyped and read as the type afterwards).
    func resolved(against shape: ValueShape, coercion: ValueCoercion) -> ResponseTemplate? {
        switch (self, shape.unwrapped) {
        case (_, .any): return nil
        case (.string(let template), _): return .typedString(template, shape)
        case (.literal(let json), _): return coercion.fromJSON(json, as: shape).map { .constant($0) }
        case (.first(let alternatives), _):
            var resolved: [ResponseTemplate] = []
            for alternative in alternatives {
                guard let typed = alternative.resolved(against: shape, coercion: coercion) else { return nil }
                resolved.append(typed)
            }
            return .first(resolved)
        case (.each(let source, let item), .list(let element)):
            return item.resolved(against: element, coercion: coercion).map { .each(source: source, item: $0) }
        case (.array(let elements), .list(let element)):
            var resolved: [ResponseTemplate] = []
            for item in elements {
                guard let typed = item.resolved(against: element, coercion: coercion) else { return nil }
                resolved.append(typed)
            }
            return .array(resolved)
        case (.object(let members), .object(let reference)):
            guard let type = coercion.catalog.object(reference) else { return nil }
            var resolved: [(key: String, value: ResponseTemplate)] = []
            for member in members {
                // Keys the type does not declare are dropped, as reading the result as the type would.
                guard let property = type.property(named: member.key) else { continue }
                guard let typed = member.value.resolved(against: property.shape, coercion: coercion) else { return nil }
                resolved.append((property.name, typed))
            }
            return .typedObject(resolved)
        default: return nil
        }
    }

    /// The value, or `nil` when a required placeholder had nothing to fill it.
    func evaluate(_ scope: TemplateScope) -> DTOValue? {
        switch self {
        case .string(let template): return template.evaluate(scope)
        case .typedString(let template, let shape):
            guard let value = template.evaluate(scope) else { return nil }
            if case .string = value, shape.unwrapped == .string { return value }
            return scope.call.context.coercion.conform(value, to: shape)
        case .constant(let value): return value
        case .typedObject(let members):
            var object = DTOObject()
            for member in members {
                if let value = member.value.evaluate(scope) { object.append(member.key, value) }
            }
            return .object(object)
        case .literal(let json): return .json(json)
        case .first(let alternatives):
            for alternative in alternatives {
                if let value = alternative.evaluate(scope) { return value }
            }
            return nil
        case .each(let source, let item):
            guard case .list(let elements) = scope.value(source) else { return .list([]) }
            var values: [DTOValue] = []
            for element in elements {
                var inner = scope
                inner.item = element
                values.append(item.evaluate(inner) ?? .null)
            }
            return .list(values)
        case .array(let elements):
            return .list(elements.map { $0.evaluate(scope) ?? .null })
        case .object(let members):
            var object = DTOObject()
            for member in members {
                if let value = member.value.evaluate(scope) { object[member.key] = value }
            }
            return .object(object)
        }
    }
}
