import MockStackCore

/// Checks an operation's templates at load against its types, so that a typo reports itself
/// instead of answering silently wrong: a `{Placeholder}` must name a property of the request
/// (or one of the special `@` names), and a key of a JSON `response` must name a property of
/// the type it is written as (a key the type lacks would be dropped from every answer).
struct TemplateCheck {
    let manifest: ManifestReader
    let catalog: TypeCatalog
    let operation: MetadataOperation

    /// The names a template may read besides the request's properties (``TemplateScope``).
    static let specialNames: Set<String> = [
        "@verb", "@pathInfo", "@operation", "@userId", "@sessionId", "@userName", "@displayName",
    ]
    /// The behaviour keys that hold a template string.
    static let stringKeys = ["text", "contentType", "status", "errorCode", "message"]

    private var request: ObjectShape? { catalog.object(named: operation.name) }

    /// Checks every template of the behaviour configured at `pointer` (`/operations/Hello`).
    func check(behaviourAt pointer: String) {
        for key in Self.stringKeys {
            if let text = manifest.value(at: pointer + "/" + key)?.stringValue {
                placeholders(in: text, at: pointer + "/" + key, inEach: false)
            }
        }
        for (name, value) in manifest.stringMap(pointer + "/headers") {
            placeholders(in: value, at: JSONPointer.appending(name, to: pointer + "/headers"), inEach: false)
        }
        if let response = manifest.value(at: pointer + "/response") {
            json(response, as: returnShape, at: pointer + "/response", inEach: false)
        }
    }

    /// The shape the response is read as; nil when the operation's type is unknown or void.
    private var returnShape: ValueShape? {
        guard let reference = operation.returnType?.reference ?? operation.response?.reference else { return nil }
        return catalog.shape(of: reference)
    }

    /// Walks a JSON template beside the shape it is written as.
    private func json(_ value: JSONValue, as shape: ValueShape?, at pointer: String, inEach: Bool) {
        switch value {
        case .string(let text):
            placeholders(in: text, at: pointer, inEach: inEach)
        case .array(let elements):
            let element: ValueShape? = if case .list(let element)? = shape?.unwrapped { element } else { nil }
            for (index, item) in elements.enumerated() {
                json(item, as: element, at: pointer + "/\(index)", inEach: inEach)
            }
        case .object(let object):
            if let alternatives = object["$first"]?.arrayValue {
                for (index, item) in alternatives.enumerated() {
                    json(item, as: shape, at: JSONPointer.appending(index, to: pointer + "/$first"), inEach: inEach)
                }
            } else if let source = object["$each"]?.stringValue {
                if !isReadable(source, inEach: inEach) { report(source, at: pointer + "/$each") }
                let element: ValueShape? = if case .list(let element)? = shape?.unwrapped { element } else { nil }
                json(object["$as"] ?? "{.}", as: element, at: pointer + "/$as", inEach: true)
            } else {
                var type: ObjectShape?
                if case .object(let reference)? = shape?.unwrapped { type = catalog.object(reference) }
                for member in object.members {
                    let at = JSONPointer.appending(member.key, to: pointer)
                    guard let type else {
                        json(member.value, as: nil, at: at, inEach: inEach)
                        continue
                    }
                    guard let property = type.property(named: member.key) else {
                        manifest.report(
                            """
                            '\(member.key)' is not a property of \(type.reference) \
                            (\(type.properties.map(\.name).joined(separator: ", ")))
                            """,
                            at: at)
                        continue
                    }
                    json(member.value, as: property.shape, at: at, inEach: inEach)
                }
            }
        default:
            break
        }
    }

    /// Reports every placeholder of `text` that nothing fills.
    private func placeholders(in text: String, at pointer: String, inEach: Bool) {
        for name in TemplateString(text).names where !isReadable(name, inEach: inEach) {
            report(name, at: pointer)
        }
    }

    private func isReadable(_ name: String, inEach: Bool) -> Bool {
        if name.hasPrefix("@") { return Self.specialNames.contains(name) }
        // `{.}` and `{.Name}`: the current `$each` item, whose type the template does not state.
        if name.hasPrefix(".") { return inEach }
        guard let request else { return true }
        return request.property(named: name) != nil
    }

    private func report(_ name: String, at pointer: String) {
        if name.hasPrefix("@") {
            manifest.report(
                "'{\(name)}' is not a special name (\(Self.specialNames.sorted().joined(separator: ", ")))", at: pointer
            )
        } else if name.hasPrefix(".") {
            manifest.report("'{\(name)}' reads the item of a '$each', and is outside one", at: pointer)
        } else {
            let properties = request?.properties.map(\.name) ?? []
            manifest.report(
                "'{\(name)}' is not a property of \(operation.name)"
                    + (properties.isEmpty ? " (it has none)" : " (\(properties.joined(separator: ", ")))"), at: pointer)
        }
    }
}
