import MockStackCore

/// One property of a service's schema (docs/feathers.md#query-schemas), as a generated v5 app declares it in
/// TypeBox: a JSON type, and whether it may also be null (`type: [t, "null"]`).
public struct SchemaProperty: Sendable, Equatable {
    /// The JSON types a manifest may declare.
    public enum ValueType: String, Sendable, Equatable {
        case string, number, integer, boolean
    }

    public var name: String
    public var type: ValueType
    public var nullable: Bool

    public init(_ name: String, _ type: ValueType, nullable: Bool = false) {
        self.name = name
        self.type = type
        self.nullable = nullable
    }

    /// The schema's `type`: `number`, or `["number", "null"]`.
    var ajvTypes: [String] { nullable ? [type.rawValue, "null"] : [type.rawValue] }

    /// Whether `value` has the type as it is, as Ajv checks data without coercion.
    func admits(_ value: JSONValue) -> Bool {
        switch (type, value) {
        case (_, .null): nullable
        case (.string, .string), (.number, .number), (.boolean, .bool): true
        case (.integer, .number(let number)):
            number.doubleValue.isFinite && number.doubleValue.rounded() == number.doubleValue
        default: false
        }
    }
}
