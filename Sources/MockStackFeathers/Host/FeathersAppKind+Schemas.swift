import MockStackCore

/// A service's schemas and resolver in the manifest (docs/feathers.md#query-schemas,
/// docs/feathers.md#data-schemas, docs/feathers.md#data-resolvers): `schema` declares the
/// properties' types, `coerce` the query schema built from them, `data` the data schema, and
/// `resolveData` what the server sets on a new record. A name in `coerce` or `data` that the
/// schema lacks is reported with the nearest one.
extension FeathersAppKind {
    /// `schema`: property → type, in the order the manifest declares them.
    func readSchema(at pointer: String, _ manifest: ManifestReader) -> [SchemaProperty]? {
        guard let value = manifest.value(at: pointer) else { return nil }
        guard case .object(let declared) = value else {
            manifest.report("expected an object of property → type", at: pointer)
            return nil
        }
        var properties: [SchemaProperty] = []
        for (name, type) in declared {
            let text = type.stringValue ?? ""
            let nullable = text.hasSuffix("?")
            guard let parsed = SchemaProperty.ValueType(rawValue: nullable ? String(text.dropLast()) : text) else {
                manifest.report(
                    "expected \"string\", \"number\", \"integer\" or \"boolean\", with a ? when it may be null",
                    at: JSONPointer.appending(name, to: pointer))
                continue
            }
            properties.append(SchemaProperty(name, parsed, nullable: nullable))
        }
        return properties
    }

    /// `coerce`: `true` (a query may name every property of the schema), `false`, or the list
    /// of those it may name.
    func readQueryProperties(
        at pointer: String, schema: [SchemaProperty]?, _ manifest: ManifestReader
    ) -> QuerySchema? {
        guard let value = manifest.value(at: pointer), value != false else { return nil }
        guard let schema else {
            manifest.report("coerce needs a schema of the properties' types", at: pointer)
            return nil
        }
        switch value {
        case .bool(true): return QuerySchema(properties: schema)
        case .array(let items):
            let names = Set(propertyNames(items, at: pointer, schema: schema, manifest).map(\.name))
            return QuerySchema(properties: schema.filter { names.contains($0.name) })
        default:
            manifest.report(
                "expected true, false or a list of the properties a query may name, found \(value.typeName)",
                at: pointer)
            return nil
        }
    }

    /// `data`: the properties `create` takes, a name ending in `?` when it may be left out.
    func readDataProperties(
        at pointer: String, schema: [SchemaProperty]?, _ manifest: ManifestReader
    ) -> DataSchema? {
        guard let value = manifest.value(at: pointer) else { return nil }
        guard let schema else {
            manifest.report("data needs a schema of the properties' types", at: pointer)
            return nil
        }
        guard case .array(let items) = value else {
            manifest.report(
                "expected a list of the properties create takes (\"name\", or \"name?\" when it may be left out), "
                    + "found \(value.typeName)", at: pointer)
            return nil
        }
        return DataSchema(properties: schema, picked: propertyNames(items, at: pointer, schema: schema, manifest))
    }

    /// A list of the schema's property names, each perhaps marked optional with a trailing `?`.
    private func propertyNames(
        _ items: [JSONValue], at pointer: String, schema: [SchemaProperty], _ manifest: ManifestReader
    ) -> [(name: String, optional: Bool)] {
        let declared = schema.map(\.name)
        var names: [(name: String, optional: Bool)] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                manifest.report("expected a property's name, found \(item.typeName)", at: pointer + "/\(index)")
                continue
            }
            let optional = text.hasSuffix("?")
            let name = optional ? String(text.dropLast()) : text
            guard declared.contains(name) else {
                manifest.report(
                    "'\(name)' is not in the schema; "
                        + DidYouMean.hint(for: name, among: declared, plural: "schema's properties"),
                    at: pointer + "/\(index)")
                continue
            }
            names.append((name, optional))
        }
        return names
    }

    /// `resolveData`: property → `"user.FIELD"` (the signed-in caller's field; the service's
    /// `create` must then need a JWT) or `"now"`.
    func readDataResolver(
        at pointer: String, _ manifest: ManifestReader, createNeedsToken: Bool
    ) -> DataResolver? {
        guard let value = manifest.value(at: pointer) else { return nil }
        guard case .object(let declared) = value else {
            manifest.report("expected an object of property → \"user.FIELD\" or \"now\"", at: pointer)
            return nil
        }
        var properties: [DataResolver.Property] = []
        for (name, source) in declared {
            let at = JSONPointer.appending(name, to: pointer)
            switch source.stringValue {
            case "now": properties.append(DataResolver.Property(name, .now))
            case let text? where text.hasPrefix("user.") && text.count > 5:
                guard createNeedsToken else {
                    manifest.report(
                        "'\(text)' reads the signed-in user, so create must need a JWT (add it to authenticate)", at: at
                    )
                    continue
                }
                properties.append(DataResolver.Property(name, .user(field: String(text.dropFirst(5)))))
            default:
                manifest.report("expected \"user.FIELD\" (the signed-in user's field) or \"now\"", at: at)
            }
        }
        return DataResolver(properties)
    }
}
