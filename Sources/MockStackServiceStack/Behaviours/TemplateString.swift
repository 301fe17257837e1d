/// A string with `{Name}` placeholders filled from the request: `Hello, {Name}!`,
/// `{Message|Custom Status Description}` (a fallback when `Message` is null or empty).
/// Special names: `{@verb}`, `{@pathInfo}`, `{@operation}`, the caller's `{@userId}`,
/// `{@sessionId}`, `{@userName}`, `{@displayName}`, and `{.}` (the current `$each` item).
public struct TemplateString: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case literal(String)
        case placeholder(name: String, fallback: String?)
    }

    let parts: [Part]
    public let source: String

    /// Parses a template; `{` without a closing `}` is literal text.
    public init(_ source: String) {
        self.source = source
        var parts: [Part] = []
        var rest = Substring(source)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            let inside = rest[rest.index(after: open)..<close]
            if let bar = inside.firstIndex(of: "|") {
                parts.append(
                    .placeholder(name: String(inside[..<bar]), fallback: String(inside[inside.index(after: bar)...])))
            } else {
                parts.append(.placeholder(name: String(inside), fallback: nil))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
    }

    /// The placeholder when the template is nothing else, so the value keeps its type.
    var wholePlaceholder: (name: String, fallback: String?)? {
        guard parts.count == 1, case .placeholder(let name, let fallback) = parts[0] else { return nil }
        return (name, fallback)
    }

    /// The names the template reads.
    var names: [String] {
        parts.compactMap { if case .placeholder(let name, _) = $0 { name } else { nil } }
    }

    /// The value of a whole-placeholder template (typed), or the rendered text; `nil` when a
    /// placeholder without fallback has no value.
    func evaluate(_ scope: TemplateScope) -> DTOValue? {
        if let whole = wholePlaceholder {
            let value = scope.value(whole.name)
            if !TemplateScope.isBlank(value) { return value }
            return whole.fallback.map { .string($0) }
        }
        return render(scope).map { .string($0) }
    }

    /// The text with every placeholder filled; `nil` when one has neither value nor fallback.
    func render(_ scope: TemplateScope) -> String? {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .placeholder(let name, let fallback):
                let value = scope.value(name)
                if !TemplateScope.isBlank(value), let rendered = scope.text(of: value) {
                    text += rendered
                } else if let fallback {
                    text += fallback
                } else {
                    return nil
                }
            }
        }
        return text
    }
}

/// What template placeholders can read: the request DTO, facts about the call, the current
/// `$each` item.
struct TemplateScope {
    let call: ServiceCall
    var item: DTOValue?

    func value(_ name: String) -> DTOValue {
        // A plain property name, the usual case, need not be compared with each special one.
        guard let first = name.utf8.first, first == UInt8(ascii: "@") || first == UInt8(ascii: ".") else {
            return call.request.value(named: name)
        }
        switch name {
        case ".": return item ?? .null
        case "@verb": return .string(call.verb)
        case "@pathInfo": return .string(call.pathInfo)
        case "@operation": return .string(call.operation.name)
        case "@userId": return call.session.map { .string($0.userAuthId) } ?? .null
        case "@sessionId": return call.session.map { .string($0.sessionId) } ?? .null
        case "@userName": return call.session?.userName.map { .string($0) } ?? .null
        case "@displayName": return call.session?.displayName.map { .string($0) } ?? .null
        default:
            if let item, case .object(let object) = item, name.hasPrefix(".") {
                return object.value(named: String(name.dropFirst()))
            }
            return call.request.value(named: name)
        }
    }

    func text(of value: DTOValue) -> String? {
        switch value {
        case .null: nil
        case .dateTime(let date): date.isoText
        case .timeSpan(let span): span.xsdText
        default: value.text ?? JSVWriter(catalog: call.context.catalog).text(value, as: .any)
        }
    }

    static func isBlank(_ value: DTOValue) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text.isEmpty
        default: false
        }
    }
}
