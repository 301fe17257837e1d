public import MockStackCore

/// `coerce` (docs/feathers.md#query-schemas): a v5 generated app validates every query against its
/// `querySyntax` schema with Ajv's `coerceTypes`, so query-string text becomes the declared
/// types (`'30'` → 30, `'true'` → true) and anything the schema does not allow is a 400
/// `validation failed` with Ajv's errors as `data`.
///
/// The schema allows `$limit` and `$skip` (numbers ≥ 0), `$sort` (declared properties → an
/// integer from -1 to 1), `$select` (a list of declared properties), `$or` and `$and` (lists of sub-queries), and
/// per declared property either a value of its type or an object of `$gt $gte $lt $lte $ne`
/// (its type) and `$in $nin` (lists of it); nothing else. Ajv's error texts and schema paths
/// follow its formats for TypeBox's `querySyntax` (Unverified beyond that).
public struct QuerySchema: Sendable, Equatable {
    /// The properties a query may name (the generator's `QueryProperties`), in declared order.
    public var properties: [SchemaProperty]
    private var byName: [String: SchemaProperty]

    public init(properties: [SchemaProperty]) {
        self.properties = properties
        byName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    }

    /// The query with its values converted, or the 400 Ajv reports first.
    public func coerce(_ query: JSONObject) throws(FeathersError) -> JSONObject {
        try coerceQuery(query, path: "", schemaPath: "#", allowAnd: true)
    }

    private func coerceQuery(
        _ query: JSONObject, path: String, schemaPath: String, allowAnd: Bool
    ) throws(FeathersError) -> JSONObject {
        var result = JSONObject()
        for (key, value) in query {
            // Where the value is, in the query and in the schema: written out only for an error.
            func here() -> String { path + "/" + AjvError.pointerStep(key) }
            func schemaHere() -> String { schemaPath + "/properties/" + AjvError.fragmentStep(key) }
            switch key {
            case _ where path.isEmpty && (key == "$limit" || key == "$skip"):
                let number = try coerceScalar(value, .number, path: here(), schemaPath: schemaHere())
                if case .number(let n) = number, n.doubleValue < 0 {
                    throw AjvError.failure(
                        here(), schemaHere() + "/minimum", "minimum", ["comparison": ">=", "limit": 0], "must be >= 0")
                }
                result[key] = number
            case "$sort" where path.isEmpty:
                guard case .object(let keys) = value else { throw AjvError.type(here(), schemaHere(), "object") }
                var sort = JSONObject()
                for (field, direction) in keys {
                    guard byName[field] != nil else {
                        throw AjvError.additionalProperty(field, path: here(), schemaPath: schemaHere())
                    }
                    let fieldPath = here() + "/" + AjvError.pointerStep(field)
                    let fieldSchema = schemaHere() + "/properties/" + AjvError.fragmentStep(field)
                    // TypeBox's sort definition: an integer from -1 to 1 (0 adds no ordering).
                    let coerced = try coerceScalar(direction, .integer, path: fieldPath, schemaPath: fieldSchema)
                    if case .number(let n) = coerced, n.doubleValue < -1 {
                        throw AjvError.failure(
                            fieldPath, fieldSchema + "/minimum", "minimum", ["comparison": ">=", "limit": -1],
                            "must be >= -1")
                    }
                    if case .number(let n) = coerced, n.doubleValue > 1 {
                        throw AjvError.failure(
                            fieldPath, fieldSchema + "/maximum", "maximum", ["comparison": "<=", "limit": 1],
                            "must be <= 1")
                    }
                    sort[field] = coerced
                }
                result[key] = .object(sort)
            case "$select" where path.isEmpty:
                guard case .array(let fields) = value else { throw AjvError.type(here(), schemaHere(), "array") }
                for (index, field) in fields.enumerated()
                where !(field.stringValue.map { byName[$0] != nil } ?? false) {
                    throw AjvError.failure(
                        here() + "/\(index)", schemaHere() + "/items/enum", "enum",
                        ["allowedValues": .array(properties.map { .string($0.name) })],
                        "must be equal to one of the allowed values")
                }
                result[key] = value
            case _ where key == "$or" || (key == "$and" && allowAnd):
                guard case .array(let items) = value else { throw AjvError.type(here(), schemaHere(), "array") }
                var coerced: [JSONValue] = []
                for (index, item) in items.enumerated() {
                    guard case .object(let sub) = item else {
                        throw AjvError.type(here() + "/\(index)", schemaHere() + "/items", "object")
                    }
                    coerced.append(
                        .object(
                            try coerceQuery(
                                sub, path: here() + "/\(index)", schemaPath: schemaHere() + "/items", allowAnd: false)))
                }
                result[key] = .array(coerced)
            default:
                guard let property = byName[key] else {
                    throw AjvError.additionalProperty(key, path: path, schemaPath: schemaPath)
                }
                result[key] = try coerceProperty(
                    value, property.type, nullable: property.nullable, path: here(), schemaPath: schemaHere())
            }
        }
        return result
    }

    /// A value of the type, or an object of operators; Ajv reports both branches of the anyOf.
    private func coerceProperty(
        _ value: JSONValue, _ type: SchemaProperty.ValueType, nullable: Bool, path: @autoclosure () -> String,
        schemaPath: @autoclosure () -> String
    ) throws(FeathersError) -> JSONValue {
        guard case .object(let operators) = value else {
            do {
                return try coerceScalar(
                    value, type, nullable: nullable, path: path(), schemaPath: schemaPath() + "/anyOf/0")
            } catch {
                let branchErrors =
                    (error.data?.arrayValue ?? []) + [
                        AjvError.object(
                            path(), schemaPath() + "/anyOf/1/type", "type", ["type": "object"], "must be object")
                    ]
                throw AjvError.failure(
                    branchErrors + [
                        AjvError.object(path(), schemaPath() + "/anyOf", "anyOf", [:], "must match a schema in anyOf")
                    ])
            }
        }
        let branch = schemaPath() + "/anyOf/1"
        var result = JSONObject()
        for (name, argument) in operators {
            let here = path() + "/" + AjvError.pointerStep(name)
            let schemaHere = branch + "/properties/" + AjvError.fragmentStep(name)
            switch name {
            case "$gt", "$gte", "$lt", "$lte", "$ne":
                result[name] = try coerceScalar(argument, type, nullable: nullable, path: here, schemaPath: schemaHere)
            case "$in", "$nin":
                guard case .array(let items) = argument else { throw AjvError.type(here, schemaHere, "array") }
                var coerced: [JSONValue] = []
                for (index, item) in items.enumerated() {
                    coerced.append(
                        try coerceScalar(
                            item, type, nullable: nullable, path: here + "/\(index)", schemaPath: schemaHere + "/items")
                    )
                }
                result[name] = .array(coerced)
            default:
                throw AjvError.additionalProperty(name, path: path(), schemaPath: branch)
            }
        }
        return .object(result)
    }

    /// Ajv's `coerceTypes: true` conversions to a scalar type; a nullable one keeps null and
    /// reads `""` (and `0`, `false`) as null when its own type does not take them.
    private func coerceScalar(
        _ value: JSONValue, _ type: SchemaProperty.ValueType, nullable: Bool = false, path: @autoclosure () -> String,
        schemaPath: @autoclosure () -> String
    ) throws(FeathersError) -> JSONValue {
        if nullable {
            if value == .null { return .null }
            do {
                return try coerceScalar(value, type, path: path(), schemaPath: schemaPath())
            } catch {
                if value == "" || value == 0 || value == false { return .null }
                throw AjvError.type(path(), schemaPath(), [type.rawValue, "null"])
            }
        }
        switch (type, value) {
        case (.string, .string): return value
        case (.string, .number(let n)): return .string(n.literal)
        case (.string, .bool(let flag)): return .string(flag ? "true" : "false")
        case (.string, .null): return .string("")
        case (.number, .number), (.boolean, .bool): return value
        case (.integer, .number(let n)) where n.doubleValue.rounded() == n.doubleValue: return value
        case (.number, .string(let text)), (.integer, .string(let text)):
            if let number = Double(text.trimmingASCIISpace()), !text.isEmpty, number.isFinite,
                type == .number || number.rounded() == number
            {
                return .number(
                    number.rounded() == number && abs(number) < 1e15 ? JSONNumber(Int(number)) : JSONNumber(number))
            }
        case (.number, .bool(let flag)), (.integer, .bool(let flag)): return .number(JSONNumber(flag ? 1 : 0))
        case (.number, .null), (.integer, .null): return .number(JSONNumber(0))
        case (.boolean, .string("true")), (.boolean, .number(JSONNumber(literal: "1"))): return .bool(true)
        case (.boolean, .string("false")), (.boolean, .number(JSONNumber(literal: "0"))), (.boolean, .null):
            return .bool(false)
        default: break
        }
        throw AjvError.type(path(), schemaPath(), type.rawValue)
    }
}
