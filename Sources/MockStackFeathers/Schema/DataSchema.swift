public import MockStackCore

/// A generated v5 service's data schemas (docs/feathers.md#data-schemas), checked as its
/// `validateData` hooks check them: Ajv without type coercion, so `"51"` is no number.
///
/// - `create` takes the schema's picked properties (`Type.Pick(schema, [...])`), those not
///   marked optional required; `update` takes the same, as a whole record replaces one.
/// - `patch` takes any of the schema's properties (`Type.Partial(schema)`).
/// - Both keep the schema's `additionalProperties: false`; an array (a multi `create`) is
///   checked record by record.
///
/// A failure is a 400 `validation failed` with Ajv's first error as `data`, and nothing is stored.
public struct DataSchema: Sendable, Equatable {
    /// Every property of the service's schema, in declared order: what `patch` may set.
    public var properties: [SchemaProperty]
    /// The properties `create` and `update` take, in the schema's order.
    public var picked: [SchemaProperty]
    /// Those of `picked` a record must have.
    public var required: [String]

    /// - Parameters:
    ///   - properties: the service's schema.
    ///   - picked: the names `create` takes, each with whether it may be left out.
    public init(properties: [SchemaProperty], picked: [(name: String, optional: Bool)]) {
        self.properties = properties
        let names = Set(picked.map(\.name))
        let optional = Set(picked.filter(\.optional).map(\.name))
        self.picked = properties.filter { names.contains($0.name) }
        required = self.picked.map(\.name).filter { !optional.contains($0) }
    }

    /// Checks a call's data; the methods without data pass.
    public func validate(_ data: JSONValue, for method: ServiceMethod) throws(FeathersError) {
        let allowed: [SchemaProperty]
        let required: [String]
        switch method {
        case .create, .update: (allowed, required) = (picked, self.required)
        case .patch: (allowed, required) = (properties, [])
        case .find, .get, .remove: return
        }
        if case .array(let records) = data {
            for record in records { try Self.validate(record, allowed: allowed, required: required) }
        } else {
            try Self.validate(data, allowed: allowed, required: required)
        }
    }

    /// Ajv's order for an object schema: the type, `required`, `additionalProperties`, then
    /// each declared property in the schema's order.
    private static func validate(
        _ data: JSONValue, allowed: [SchemaProperty], required: [String]
    ) throws(FeathersError) {
        guard case .object(let record) = data else { throw AjvError.type("", "#", "object") }
        for name in required where record[name] == nil {
            throw AjvError.missingProperty(name, path: "", schemaPath: "#")
        }
        func isExtra(_ key: String) -> Bool { !allowed.contains { $0.name == key } }
        // Ordering the keys costs allocations, so it waits for a record that has an extra one.
        if record.contains(where: { isExtra($0.key) }), let first = javaScriptKeyOrder(record).first(where: isExtra) {
            throw AjvError.additionalProperty(first, path: "", schemaPath: "#")
        }
        for property in allowed {
            guard let value = record[property.name], !property.admits(value) else { continue }
            throw AjvError.type(
                "/" + AjvError.pointerStep(property.name), "#/properties/" + AjvError.fragmentStep(property.name),
                property.ajvTypes)
        }
    }

    /// The keys as `for…in` lists a parsed object's: integer-like keys ascending, then the
    /// others in the order they first appeared.
    private static func javaScriptKeyOrder(_ record: JSONObject) -> [String] {
        var seen: Set<String> = []
        let keys = record.keys.filter { seen.insert($0).inserted }
        let indices = keys.compactMap { key in MemoryStore.integerKey(key).map { ($0, key) } }
        guard !indices.isEmpty else { return keys }
        return indices.sorted { $0.0 < $1.0 }.map(\.1) + keys.filter { MemoryStore.integerKey($0) == nil }
    }
}
