/// One condition a query parameter asks for: a field of the data set and a comparison.
public struct QueryTerm: Sendable, Equatable {
    /// The field as the data set names it (whatever case the parameter used).
    public var field: String
    public var `operator`: QueryConvention.Operator

    public init(field: String, operator: QueryConvention.Operator) {
        self.field = field
        self.operator = `operator`
    }
}

/// Matches AutoQuery parameter names to fields and conventions the way AutoQuery does
/// (docs/servicestack.md#matching-a-parameter-name): reserved names are not filters; an exact field
/// name (any case) is `=`, its plural `IN`; then the prefix conventions in table order, then
/// the string suffixes and the implicit suffixes in table order. Affixes compare exactly
/// (`nameContains` works, `namecontains` does not); the field part compares ignoring case.
/// Names that match nothing are ignored.
public struct QueryParameterResolver: Sendable {
    /// Query options and reserved names, never filters (compared ignoring case).
    public static let reservedNames: Set<String> = [
        "skip", "take", "orderby", "orderbydesc", "fields", "_select", "_from", "_join", "_where", "include", "meta",
        "jsconfig",
    ]

    /// Lower-cased field name or alias → the field.
    private let fieldsByLowercasedName: [String: String]

    /// - Parameters:
    ///   - fields: the data set's field names.
    ///   - aliases: other names for fields (`[DataMember(Name)]`, `[Alias]`): alias → field.
    public init(fields: [String], aliases: [String: String] = [:]) {
        var index: [String: String] = [:]
        for field in fields { index[field.lowercased()] = index[field.lowercased()] ?? field }
        for (alias, field) in aliases { index[alias.lowercased()] = index[alias.lowercased()] ?? field }
        fieldsByLowercasedName = index
    }

    /// The field a name (or a name's part) means, ignoring case.
    public func field(named name: some StringProtocol) -> String? {
        fieldsByLowercasedName[name.lowercased()]
    }

    /// The condition a parameter name asks for, or nil when it is reserved or matches nothing.
    public func resolve(_ name: String) -> QueryTerm? {
        guard !name.isEmpty, !Self.reservedNames.contains(name.lowercased()) else { return nil }
        if let field = field(named: name) { return QueryTerm(field: field, operator: .equal) }
        if let field = singular(of: name) { return QueryTerm(field: field, operator: .in) }
        for convention in QueryConvention.implicit where convention.isPrefix && name.hasPrefixOrdinal(convention.affix)
        {
            if let field = field(named: Substring(name.utf8.dropFirst(convention.affix.utf8.count))) {
                return QueryTerm(field: field, operator: convention.operator)
            }
        }
        for convention in QueryConvention.strings + QueryConvention.implicit
        where convention.isSuffix && name.hasSuffixOrdinal(convention.affix) {
            if let field = field(named: Substring(name.utf8.dropLast(convention.affix.utf8.count))) {
                return QueryTerm(field: field, operator: convention.operator)
            }
        }
        return nil
    }

    /// `Ids` → `Id`, `Categories` → `Category`, `Statuses` → `Status`: the field a plural names.
    private func singular(of name: String) -> String? {
        let lower = name.lowercased()
        guard lower.hasSuffix("s") else { return nil }
        if lower.hasSuffix("ies"), let field = field(named: lower.dropLast(3) + "y") { return field }
        if lower.hasSuffix("es"), let field = field(named: lower.dropLast(2)) { return field }
        return field(named: lower.dropLast())
    }
}

extension String {
    /// Byte-wise prefix test: AutoQuery's affixes compare ordinally, not as Unicode text.
    func hasPrefixOrdinal(_ prefix: String) -> Bool {
        utf8.count > prefix.utf8.count && utf8.starts(with: prefix.utf8)
    }

    func hasSuffixOrdinal(_ suffix: String) -> Bool {
        utf8.count > suffix.utf8.count && utf8.reversed().starts(with: suffix.utf8.reversed())
    }
}
