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

    /// The value, or `nil` when a required placeholder had nothing to fill it.
    func evaluate(_ scope: TemplateScope) -> DTOValue? {
        switch self {
        case .string(let template): return template.evaluate(scope)
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
