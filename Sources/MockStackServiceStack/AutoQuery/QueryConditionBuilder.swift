/// Turns untyped AutoQuery parameters (`?VendorName=Google&ViewCountAbove=10&IdsIn=1,2`) into
/// conditions on a data set's fields (docs/servicestack.md#values): the name picks field and convention,
/// the text is read as the field's type, `""` is NULL (so `=` becomes `IS NULL`), list
/// conventions and plural names take `1,2,3` or `[1,2,3]`, and `Between` needs exactly two.
public struct QueryConditionBuilder: Sendable {
    public let resolver: QueryParameterResolver
    /// Each field's type.
    public let fieldShapes: [String: ValueShape]
    public let coercion: ValueCoercion

    public init(fields: [(name: String, shape: ValueShape)], aliases: [String: String] = [:], coercion: ValueCoercion) {
        resolver = QueryParameterResolver(fields: fields.map(\.name), aliases: aliases)
        fieldShapes = Dictionary(fields.map { ($0.name, $0.shape) }, uniquingKeysWith: { first, _ in first })
        self.coercion = coercion
    }

    /// The condition a parameter asks for; nil for reserved and unknown names, which AutoQuery
    /// ignores. A value that cannot be read as the field's type is a 400.
    /// Limits that keep one request from costing more than it should: values in a list, and
    /// characters in a value matched with LIKE against every row.
    public static let maximumListCount = 1_000
    public static let maximumPatternLength = 256

    public func condition(name: String, value: String) throws(ServiceError) -> QueryCondition? {
        guard let term = resolver.resolve(name) else { return nil }
        try Self.checkLimits(term, patternLength: value.count)
        let shape = fieldShapes[term.field] ?? .any
        if term.operator.takesNoValue {
            return QueryCondition(field: term.field, operator: term.operator, values: [])
        }
        if term.operator.takesList {
            let items = try list(value, field: term.field, shape: shape)
            if term.operator == .between, items.count != 2 {
                throw ServiceError(.argument, "\(term.field) requires 2 values")
            }
            return QueryCondition(field: term.field, operator: term.operator, values: items)
        }
        let operand = try scalar(value, field: term.field, shape: shape)
        if operand.isNull, term.operator == .equal {
            return QueryCondition(field: term.field, operator: .isNull, values: [])
        }
        return QueryCondition(field: term.field, operator: term.operator, values: [operand])
    }

    private func scalar(_ text: String, field: String, shape: ValueShape) throws(ServiceError) -> DTOValue {
        if text.isEmpty { return .null }
        // Text fields take the raw text; others are read as their type.
        if shape.unwrapped == .string { return .string(text) }
        guard let value = coercion.fromText(text, as: shape) else { throw Self.invalid(text, field: field) }
        return value
    }

    /// Refuses values past the limits with a 400.
    static func checkLimits(_ term: QueryTerm, patternLength: Int = 0, listCount: Int = 0) throws(ServiceError) {
        switch term.operator {
        case .like, .startsWith, .contains, .endsWith:
            if patternLength > maximumPatternLength {
                throw ServiceError(
                    .argument, "\(term.field): a pattern of more than \(maximumPatternLength) characters")
            }
        default: break
        }
        if listCount > maximumListCount {
            throw ServiceError(.argument, "\(term.field): more than \(maximumListCount) values")
        }
    }

    private func list(_ text: String, field: String, shape: ValueShape) throws(ServiceError) -> [DTOValue] {
        guard let nodes = JSVReader.readList(text) else { throw Self.invalid(text, field: field) }
        if nodes.count > Self.maximumListCount {
            throw ServiceError(.argument, "\(field): more than \(Self.maximumListCount) values")
        }
        var values: [DTOValue] = []
        for node in nodes {
            guard case .text(let item) = node else { throw Self.invalid(text, field: field) }
            values.append(try scalar(item, field: field, shape: shape))
        }
        return values
    }

    private static func invalid(_ text: String, field: String) -> ServiceError {
        // Mock choice: the message AutoQuery's conversion failure carries is Unverified; this one
        // names the value and the field, in the binding error's words.
        ServiceError(.argument, "'\(text)' is an Invalid value for '\(field)'")
    }
}
