import MockStackCore

/// Runs AutoQuery requests over an in-memory data set with the semantics of the SQL AutoQuery
/// generates (spec §11): conditions joined by their terms, `ORDER BY`, paging clamped to
/// MaxLimit, field selection, totals and aggregates.
public struct AutoQueryEngine: Sendable {
    /// The data set's rows, typed by its model.
    public let rows: [DTOObject]
    /// Field names in declaration order (the primary key first when it is `Id`).
    public let fields: [String]
    public let primaryKey: String
    /// `take` defaults to this and is clamped to it.
    public let maxLimit: Int
    /// Compute `total` for every query, not only when `include=Total` asks (TechStacks).
    public let includeTotal: Bool
    /// Field names as `orderBy` and `fields` may spell them.
    private let resolver: QueryParameterResolver

    public init(rows: [DTOObject], fields: [String], primaryKey: String = "Id", maxLimit: Int, includeTotal: Bool) {
        self.rows = rows
        self.fields = fields
        self.primaryKey = primaryKey
        self.maxLimit = maxLimit
        self.includeTotal = includeTotal
        resolver = QueryParameterResolver(fields: fields)
    }

    /// Runs a query; unknown order fields and the like are 400s.
    public func run(_ query: AutoQuery) throws(ServiceError) -> AutoQueryResult {
        let prepared = query.prepared()
        var matching = rows.filter { prepared.matches($0) }
        let total = includeTotal || query.wantsTotal ? matching.count : 0
        let meta = try AutoQueryAggregates(query.include, fields: fields).evaluate(over: matching)

        let ordering = try orderKeys(for: query)
        if let seed = ordering.randomSeed {
            var generator = SeededGenerator(seed: seed)
            matching.shuffle(using: &generator)
        } else {
            matching.sort { lhs, rhs in Self.precedes(lhs, rhs, by: ordering.keys) }
        }
        // SELECT [DISTINCT] fields … ORDER BY … LIMIT/OFFSET: projection and DISTINCT before paging.
        if let selected = selection(query.fields) {
            matching = matching.map { row in DTOObject(selected.names.map { ($0, row[$0]) }) }
            if selected.distinct { matching = Self.distinct(matching) }
        }
        let skip = max(0, query.skip ?? 0)
        let take = min(max(0, query.take ?? maxLimit), maxLimit)
        return AutoQueryResult(offset: skip, total: total, rows: Array(matching.dropFirst(skip).prefix(take)), meta: meta)
    }

    // MARK: Ordering

    struct Ordering {
        var keys: [(field: String, descending: Bool)]
        var randomSeed: UInt64?
    }

    /// `orderBy=Id,-ViewCount` (a `-` is descending), `orderByDesc` the same inverted, `orderBy`
    /// winning when both are given; `Random` shuffles. The primary key breaks ties last, so the
    /// order is deterministic (Mock choice: SQL leaves ties, and no order at all, unspecified).
    private func orderKeys(for query: AutoQuery) throws(ServiceError) -> Ordering {
        var keys: [(field: String, descending: Bool)] = []
        let given = query.orderBy.flatMap { $0.isEmpty ? nil : $0 }
        let (list, inverted) = given.map { ($0, false) } ?? query.orderByDesc.map { ($0, true) } ?? ([], false)
        for item in list {
            let trimmed = item.trimmingASCIISpace()
            if trimmed.isEmpty { continue }
            if trimmed.equalsIgnoringASCIICase("Random") { return Ordering(keys: [], randomSeed: query.randomSeed ?? 0) }
            let descending = trimmed.hasPrefix("-")
            let name = descending ? trimmed.dropFirst() : trimmed
            guard let field = resolver.field(named: name) else {
                throw ServiceError(.argument, "Could not find field \(name)")
            }
            // A field already ordered by decides nothing more.
            if !keys.contains(where: { $0.field == field }) { keys.append((field, descending != inverted)) }
        }
        if !keys.contains(where: { $0.field == primaryKey }) { keys.append((primaryKey, false)) }
        return Ordering(keys: keys, randomSeed: nil)
    }

    /// SQLite's order: NULL before every value ascending, after every value descending.
    static func precedes(_ lhs: DTOObject, _ rhs: DTOObject, by keys: [(field: String, descending: Bool)]) -> Bool {
        for key in keys {
            let a = lhs[key.field], b = rhs[key.field]
            let comparison: Int
            switch (a.isNull, b.isNull) {
            case (true, true): continue
            case (true, false): comparison = -1
            case (false, true): comparison = 1
            case (false, false): comparison = SQLOrdering.compare(a, b) ?? 0
            }
            if comparison != 0 { return key.descending ? comparison > 0 : comparison < 0 }
        }
        return false
    }

    // MARK: Fields

    /// `fields=Id,Name`: case-insensitive, de-duplicated, unknown names ignored, an optional
    /// `DISTINCT ` prefix; nil when the query selects everything.
    private func selection(_ requested: String?) -> (names: [String], distinct: Bool)? {
        guard var text = requested.map({ Substring($0) }) else { return nil }
        var distinct = false
        if text.trimmingASCIISpace().uppercased().hasPrefix("DISTINCT ") {
            distinct = true
            text = text.trimmingASCIISpace().dropFirst("DISTINCT ".count)
        }
        var names: [String] = []
        for item in text.split(separator: ",") {
            if let field = resolver.field(named: item.trimmingASCIISpace()), !names.contains(field) { names.append(field) }
        }
        return names.isEmpty ? nil : (names, distinct)
    }

    private static func distinct(_ rows: [DTOObject]) -> [DTOObject] {
        var seen: Set<String> = []
        return rows.filter { row in
            seen.insert(row.members.map { "\($0.value)" }.joined(separator: "\u{1F}")).inserted
        }
    }
}

/// What an AutoQuery request asks for, once its parameters are read.
public struct AutoQuery: Sendable {
    /// Conditions in the order they were given, each with the term that joins it.
    public var conditions: [(condition: QueryCondition, term: Term)]
    /// The DTO's default term: AND, or OR for DTOs like FindTechnologies.
    public var defaultTerm: Term
    public var skip: Int?
    public var take: Int?
    public var orderBy: [String]?
    public var orderByDesc: [String]?
    public var fields: String?
    /// `include=Total`, `COUNT(*)`, aggregates.
    public var include: [String]
    /// Makes `orderBy=Random` repeatable.
    public var randomSeed: UInt64?

    public enum Term: Sendable, Equatable {
        case and, or
        /// Always ANDed with everything else.
        case ensure
    }

    public init(conditions: [(condition: QueryCondition, term: Term)] = [], defaultTerm: Term = .and, skip: Int? = nil, take: Int? = nil,
                orderBy: [String]? = nil, orderByDesc: [String]? = nil, fields: String? = nil, include: [String] = [], randomSeed: UInt64? = nil) {
        self.conditions = conditions
        self.defaultTerm = defaultTerm
        self.skip = skip
        self.take = take
        self.orderBy = orderBy
        self.orderByDesc = orderByDesc
        self.fields = fields
        self.include = include
        self.randomSeed = randomSeed
    }

    /// Whether `include` asks for the total (`Total`, `COUNT`, `COUNT(*)`).
    var wantsTotal: Bool {
        include.contains { ["total", "count", "count(*)"].contains($0.trimmingASCIISpace().lowercased()) }
    }

    /// The conditions ready to test rows (patterns and `IN` lists prepared once).
    func prepared() -> PreparedQuery {
        PreparedQuery(conditions: conditions.map { (PreparedCondition($0.condition), $0.term) }, defaultTerm: defaultTerm)
    }
}

/// The WHERE clause AutoQuery writes, evaluated: conditions joined left to right by their terms
/// with SQL's precedence (AND before OR), Ensure conditions ANDed to the whole. An OR query with
/// no conditions is `WHERE 1=0`.
struct PreparedQuery {
    /// Conditions ANDed to everything.
    let ensured: [PreparedCondition]
    /// The others, each with the term joining it to the one before.
    let joined: [(condition: PreparedCondition, term: AutoQuery.Term)]
    let defaultTerm: AutoQuery.Term

    init(conditions: [(condition: PreparedCondition, term: AutoQuery.Term)], defaultTerm: AutoQuery.Term) {
        ensured = conditions.filter { $0.term == .ensure }.map(\.condition)
        joined = conditions.filter { $0.term != .ensure }
        self.defaultTerm = defaultTerm
    }

    func matches(_ row: DTOObject) -> Bool {
        for condition in ensured where !condition.matches(row) { return false }
        if joined.isEmpty { return defaultTerm != .or || !ensured.isEmpty }
        // a OR b AND c ⇒ a OR (b AND c): OR separates groups of ANDed conditions.
        var anyGroup = false
        var group = true
        for (index, entry) in joined.enumerated() {
            if index > 0, entry.term == .or {
                if group { return true }
                anyGroup = anyGroup || group
                group = true
            }
            // Once a group has failed, its remaining conditions decide nothing.
            if group { group = entry.condition.matches(row) }
        }
        return anyGroup || group
    }
}

/// A page of results: `offset`, `total`, the rows, and the `meta` of aggregates.
public struct AutoQueryResult: Sendable, Equatable {
    public var offset: Int
    public var total: Int
    public var rows: [DTOObject]
    public var meta: [DTOMapEntry]
}

/// A small deterministic generator (SplitMix64) for `orderBy=Random` with a seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
