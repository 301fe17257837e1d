public import MockStackCore

/// `coerce: schema` (docs/feathers.md#query-schemas): a v5 generated app validates every query against its
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
    /// A declared property type.
    public enum PropertyType: String, Sendable, Equatable {
        case string, number, integer, boolean
    }

    public var properties: [String: PropertyType]
    /// Properties that may also be null (`Type.Union([Type.Number(), Type.Null()])`).
    public var nullable: Set<String>
    /// Declared order, for `$select`'s enum.
    public var order: [String]

    public init(properties: [(String, PropertyType)], nullable: Set<String> = []) {
        self.properties = Dictionary(properties, uniquingKeysWith: { $1 })
        self.nullable = nullable
        order = properties.map(\.0)
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
            func here() -> String { path + "/" + key }
            func schemaHere() -> String { schemaPath + "/properties/" + Self.escape(key) }
            switch key {
            case _ where path.isEmpty && (key == "$limit" || key == "$skip"):
                let number = try coerceScalar(value, .number, path: here(), schemaPath: schemaHere())
                if case .number(let n) = number, n.doubleValue < 0 {
                    throw Self.failure(
                        here(), schemaHere() + "/minimum", "minimum", ["comparison": ">=", "limit": 0], "must be >= 0")
                }
                result[key] = number
            case "$sort" where path.isEmpty:
                guard case .object(let keys) = value else { throw Self.typeFailure(here(), schemaHere(), "object") }
                var sort = JSONObject()
                for (field, direction) in keys {
                    guard properties[field] != nil else {
                        throw Self.additional(field, path: here(), schemaPath: schemaHere())
                    }
                    let fieldPath = here() + "/" + field
                    let fieldSchema = schemaHere() + "/properties/" + Self.escape(field)
                    // TypeBox's sort definition: an integer from -1 to 1 (0 adds no ordering).
                    let coerced = try coerceScalar(direction, .integer, path: fieldPath, schemaPath: fieldSchema)
                    if case .number(let n) = coerced, n.doubleValue < -1 {
                        throw Self.failure(
                            fieldPath, fieldSchema + "/minimum", "minimum", ["comparison": ">=", "limit": -1],
                            "must be >= -1")
                    }
                    if case .number(let n) = coerced, n.doubleValue > 1 {
                        throw Self.failure(
                            fieldPath, fieldSchema + "/maximum", "maximum", ["comparison": "<=", "limit": 1],
                            "must be <= 1")
                    }
                    sort[field] = coerced
                }
                result[key] = .object(sort)
            case "$select" where path.isEmpty:
                guard case .array(let fields) = value else { throw Self.typeFailure(here(), schemaHere(), "array") }
                for (index, field) in fields.enumerated()
                where !(field.stringValue.map { properties[$0] != nil } ?? false) {
                    throw Self.failure(
                        here() + "/\(index)", schemaHere() + "/items/enum", "enum",
                        ["allowedValues": .array(order.map(JSONValue.string))],
                        "must be equal to one of the allowed values")
                }
                result[key] = value
            case _ where key == "$or" || (key == "$and" && allowAnd):
                guard case .array(let items) = value else { throw Self.typeFailure(here(), schemaHere(), "array") }
                var coerced: [JSONValue] = []
                for (index, item) in items.enumerated() {
                    guard case .object(let sub) = item else {
                        throw Self.typeFailure(here() + "/\(index)", schemaHere() + "/items", "object")
                    }
                    coerced.append(
                        .object(
                            try coerceQuery(
                                sub, path: here() + "/\(index)", schemaPath: schemaHere() + "/items", allowAnd: false)))
                }
                result[key] = .array(coerced)
            default:
                guard let type = properties[key] else { throw Self.additional(key, path: path, schemaPath: schemaPath) }
                result[key] = try coerceProperty(
                    value, type, nullable: nullable.contains(key), path: here(), schemaPath: schemaHere())
            }
        }
        return result
    }

    /// A value of the type, or an object of operators; Ajv reports both branches of the anyOf.
    private func coerceProperty(
        _ value: JSONValue, _ type: PropertyType, nullable: Bool, path: @autoclosure () -> String,
        schemaPath: @autoclosure () -> String
    ) throws(FeathersError) -> JSONValue {
        guard case .object(let operators) = value else {
            do {
                return try coerceScalar(
                    value, type, nullable: nullable, path: path(), schemaPath: schemaPath() + "/anyOf/0")
            } catch {
                let branchErrors =
                    (error.data?.arrayValue ?? []) + [
                        Self.error(path(), schemaPath() + "/anyOf/1/type", "type", ["type": "object"], "must be object")
                    ]
                throw FeathersError(
                    .badRequest, "validation failed",
                    data: .array(
                        branchErrors + [
                            Self.error(path(), schemaPath() + "/anyOf", "anyOf", [:], "must match a schema in anyOf")
                        ]))
            }
        }
        let branch = schemaPath() + "/anyOf/1"
        var result = JSONObject()
        for (name, argument) in operators {
            let here = path() + "/" + name
            let schemaHere = branch + "/properties/" + Self.escape(name)
            switch name {
            case "$gt", "$gte", "$lt", "$lte", "$ne":
                result[name] = try coerceScalar(argument, type, nullable: nullable, path: here, schemaPath: schemaHere)
            case "$in", "$nin":
                guard case .array(let items) = argument else { throw Self.typeFailure(here, schemaHere, "array") }
                var coerced: [JSONValue] = []
                for (index, item) in items.enumerated() {
                    coerced.append(
                        try coerceScalar(
                            item, type, nullable: nullable, path: here + "/\(index)", schemaPath: schemaHere + "/items")
                    )
                }
                result[name] = .array(coerced)
            default:
                throw Self.additional(name, path: path(), schemaPath: branch)
            }
        }
        return .object(result)
    }

    /// Ajv's `coerceTypes: true` conversions to a scalar type; a nullable one keeps null and
    /// reads `""` (and `0`, `false`) as null when its own type does not take them.
    private func coerceScalar(
        _ value: JSONValue, _ type: PropertyType, nullable: Bool = false, path: @autoclosure () -> String,
        schemaPath: @autoclosure () -> String
    ) throws(FeathersError) -> JSONValue {
        if nullable {
            if value == .null { return .null }
            do {
                return try coerceScalar(value, type, path: path(), schemaPath: schemaPath())
            } catch {
                if value == "" || value == 0 || value == false { return .null }
                throw Self.typeFailure(path(), schemaPath(), type.rawValue + ",null")
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
        throw Self.typeFailure(path(), schemaPath(), type.rawValue)
    }

    // MARK: Ajv errors

    private static func typeFailure(_ path: String, _ schemaPath: String, _ type: String) -> FeathersError {
        failure(path, schemaPath + "/type", "type", ["type": .string(type)], "must be \(type)")
    }

    private static func additional(_ name: String, path: String, schemaPath: String) -> FeathersError {
        failure(
            path, schemaPath + "/additionalProperties", "additionalProperties", ["additionalProperty": .string(name)],
            "must NOT have additional properties")
    }

    private static func failure(
        _ path: String, _ schemaPath: String, _ keyword: String, _ params: JSONObject, _ message: String
    ) -> FeathersError {
        FeathersError(
            .badRequest, "validation failed", data: .array([error(path, schemaPath, keyword, params, message)]))
    }

    private static func error(
        _ path: String, _ schemaPath: String, _ keyword: String, _ params: JSONObject, _ message: String
    ) -> JSONValue {
        [
            "instancePath": .string(path), "schemaPath": .string(schemaPath), "keyword": .string(keyword),
            "params": .object(params),
            "message": .string(message),
        ]
    }

    /// A JSON pointer's escape of a key in a schema path (`$` percent-encoded, as Ajv writes it).
    /// ASCII keys are escaped byte by byte; others by `Character`s (a combining mark after `~`
    /// makes a character that is not `~`).
    private static func escape(_ key: String) -> String {
        guard
            key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "$") })
        else { return key }
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else {
            return key.replacing("~", with: "~0").replacing("/", with: "~1").replacing("$", with: "%24")
        }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(key.utf8.count + 4)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "~"): escaped += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): escaped += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            case UInt8(ascii: "$"): escaped += [UInt8(ascii: "%"), UInt8(ascii: "2"), UInt8(ascii: "4")]
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
