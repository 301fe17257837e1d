public import MockStackCore

/// A service call's `params.query` split as the adapter's `filterQuery` splits it (docs/feathers.md#queries):
/// the filters (`$limit`, `$skip`, `$sort`, `$select`, and in v5 `$or` and `$and`) and the
/// conditions records must match. Unknown `$` keys are refused with the dialect's message.
public struct FeathersQuery: Sendable {
    /// The conditions, with `$or`/`$and` kept in them for the matcher.
    public var conditions: JSONObject
    /// `$limit` after parseInt (v4: its absolute value): nil when absent, NaN when not a number.
    public var limit: Double?
    public var skip: Double?
    /// `$sort` keys in order with their directions (parseInt; NaN when not a number).
    public var sort: [(key: String, direction: Double)]?
    /// `$select` as given: an array of field names, or anything else passed through.
    public var select: JSONValue?
    /// The error the memory adapter's matcher (sift) throws as it is built from these
    /// conditions (``SiftGroupCheck``), which the adapter turns into a 500; nil when it builds.
    public var matcherFailure: FeathersError?

    /// The operators a property may use.
    static let operators: Set<String> = ["$in", "$nin", "$lt", "$lte", "$gt", "$gte", "$ne", "$or"]

    /// The filters each dialect's `filterQuery` takes out of a query.
    private static let v5Filters: Set<String> = ["$skip", "$sort", "$limit", "$select", "$or", "$and"]
    private static let v4Filters: Set<String> = ["$sort", "$limit", "$skip", "$select"]

    public init(_ query: JSONObject, dialect: FeathersDialect) throws(FeathersError) {
        let filters = dialect == .v5 ? Self.v5Filters : Self.v4Filters
        var conditions = JSONObject()
        for (key, value) in query {
            if key.hasPrefix("$") {
                guard filters.contains(key) || (dialect == .v4 && Self.operators.contains(key)) else {
                    // v5 names a bad filter; v4 cleans the whole query and names the key, with the query as data.
                    throw dialect == .v5
                        ? FeathersError(.badRequest, "Invalid filter value \(key)")
                        : FeathersError(.badRequest, "Invalid query parameter \(key)", data: .object(query))
                }
                switch key {
                case "$or", "$and": conditions[key] = try Self.validatedList(value)
                case "$limit": limit = Self.parseInt(value).map { dialect == .v4 ? abs($0) : $0 }
                case "$skip": skip = Self.parseInt(value).map { dialect == .v4 ? abs($0) : $0 }
                case "$sort":
                    if case .object(let keys) = value {
                        sort = keys.members.map { (key: $0.key, direction: Self.parseInt($0.value) ?? .nan) }
                    }
                case "$select": select = Self.selection(value)
                default: break
                }
            } else {
                conditions[key] = try Self.validated(value)
            }
        }
        self.conditions = conditions
        // v5's filters pass a `$or` or `$and` that is not a list through to sift as it is.
        if dialect == .v5 { matcherFailure = SiftGroupCheck.failure(in: conditions) }
    }

    /// A query of nothing but a `$select` (what `create` reads).
    public init(select: JSONValue?) {
        conditions = JSONObject()
        self.select = select.map(Self.selection)
    }

    /// v5 writes each `$select` item as text; anything but an array passes through as it is.
    private static func selection(_ value: JSONValue) -> JSONValue {
        guard case .array(let items) = value else { return value }
        return .array(items.map { item in item.stringValue.map(JSONValue.string) ?? .string(item.jsonText) })
    }

    /// A property's value: an object may use only the operators, at every depth.
    static func validated(_ value: JSONValue) throws(FeathersError) -> JSONValue {
        guard case .object(let object) = value else { return value }
        for (key, nested) in object {
            if key.hasPrefix("$"), !operators.contains(key) {
                throw FeathersError(.badRequest, "Invalid query parameter \(key)", data: value)
            }
            _ = try validated(nested)
        }
        return value
    }

    /// `$or` / `$and`: each sub-query validated like a property.
    private static func validatedList(_ value: JSONValue) throws(FeathersError) -> JSONValue {
        guard case .array(let items) = value else { return value }
        for item in items { _ = try validated(item) }
        return value
    }

    /// JavaScript's `parseInt(value, 10)`: leading spaces, a sign and digits; NaN without
    /// digits. A number is truncated; an array reads as its text (`[2]` → 2).
    static func parseInt(_ value: JSONValue) -> Double? {
        let text: String
        switch value {
        case .null: return .nan
        case .number(let number): return number.doubleValue.isFinite ? number.doubleValue.rounded(.towardZero) : .nan
        case .string(let string): text = string
        case .bool(let flag): text = flag ? "true" : "false"
        case .array(let items): text = items.map { $0.stringValue ?? $0.jsonText }.joined(separator: ",")
        case .object: return .nan
        }
        var scalars = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        var sign = 1.0
        if let first = scalars.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            scalars = scalars.dropFirst()
        }
        let digits = scalars.prefix { $0.isASCII && $0.isNumber }
        guard let magnitude = Double(digits), !digits.isEmpty else { return .nan }
        return sign * magnitude
    }
}

/// A service's `paginate` option.
public struct Pagination: Sendable, Equatable {
    public var defaultLimit: Int?
    public var maxLimit: Int?

    public init(defaultLimit: Int?, maxLimit: Int?) {
        self.defaultLimit = defaultLimit
        self.maxLimit = maxLimit
    }

    /// Whether `find` answers with a page: v5 whenever `paginate` is set at all (an object is
    /// truthy), v4 only with a default (docs/feathers.md#pagination).
    public func pages(_ dialect: FeathersDialect) -> Bool {
        dialect == .v5 || (defaultLimit ?? 0) != 0
    }

    /// The effective `$limit` (adapter-commons' getLimit): a usable value (a number, and in
    /// v5 not negative) else the default (0 without one), capped by the max. v4's getLimit
    /// also falls back to the default for a NaN (Unverified).
    public func limit(_ requested: Double?, _ dialect: FeathersDialect) -> Double? {
        let usable = requested.flatMap { $0.isNaN || (dialect == .v5 && $0 < 0) ? nil : $0 }
        let lower = usable ?? Double(defaultLimit ?? 0)
        return min(lower, maxLimit.map(Double.init) ?? .greatestFiniteMagnitude)
    }
}
