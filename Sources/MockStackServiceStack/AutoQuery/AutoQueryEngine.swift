import MockStackCore

/// Runs AutoQuery requests over an in-memory data set with the semantics of the SQL AutoQuery
/// generates (docs/servicestack.md#autoquery): conditions joined by their terms, `ORDER BY`, paging clamped to
/// MaxLimit, field selection, totals and aggregates.
public struct AutoQueryEngine: Sendable {
    /// Field names in declaration order (the primary key first when it is `Id`).
    public let fields: [String]
    public let primaryKey: String
    /// `take` defaults to this and is clamped to it.
    public let maxLimit: Int
    /// Compute `total` for every query, not only when `include=Total` asks (TechStacks).
    public let includeTotal: Bool
    /// The data set's rows, typed by its model, by column.
    private let store: ColumnStore
    /// Field names as `orderBy` and `fields` may spell them.
    private let resolver: QueryParameterResolver
    /// Each field's position.
    private let positions: [String: Int]

    public init(rows: [DTOObject], fields: [String], primaryKey: String = "Id", maxLimit: Int, includeTotal: Bool) {
        self.init(
            store: ColumnStore(rows: rows, fields: fields), primaryKey: primaryKey, maxLimit: maxLimit,
            includeTotal: includeTotal)
    }

    /// An engine over a store other engines may share (`FindTechnologies` and `QueryTechnology`
    /// query the same technologies).
    init(store: ColumnStore, primaryKey: String, maxLimit: Int, includeTotal: Bool) {
        self.store = store
        fields = store.fields
        self.primaryKey = primaryKey
        self.maxLimit = maxLimit
        self.includeTotal = includeTotal
        resolver = QueryParameterResolver(fields: fields)
        positions = Dictionary(fields.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The number of rows.
    public var count: Int { store.count }

    /// Runs a query; unknown order fields and the like are 400s.
    ///
    /// One pass over the conditions' columns finds the matches; only those are ordered, and
    /// when a page is all that is needed it is selected with a bounded heap rather than by
    /// sorting every match. Row objects are built for the page alone.
    public func run(_ query: AutoQuery) throws(ServiceError) -> AutoQueryResult {
        let prepared = query.prepared(against: store)
        var scratch: [UInt8] = []
        var matching: [Int] = []
        for index in 0..<store.count where prepared.matches(row: index, scratch: &scratch) {
            matching.append(index)
        }
        let aggregates = try AutoQueryAggregates(query.include, fields: fields)
        let total = includeTotal || aggregates.asksTotal ? matching.count : 0
        let meta = aggregates.meta(count: matching.count, rows: { matching.map(store.row) }, includeTotal: includeTotal)

        let ordering = try orderKeys(for: query)
        let selected = selection(query.fields)
        // A skip past the matches is an empty page (and cannot overflow `skip + take`).
        let skip = min(max(0, query.skip ?? 0), Int(Int32.max))
        let take = min(max(0, query.take ?? maxLimit), maxLimit)
        var ordered: [Int]
        if let seed = ordering.randomSeed {
            var generator = SeededRandom(seed: seed)
            matching.shuffle(using: &generator)
            ordered = matching
        } else {
            let sorter = RowSorter(
                store: store, matching: matching, keys: ordering.keys.map { (positions[$0.field]!, $0.descending) })
            // SELECT DISTINCT … ORDER BY … LIMIT: every match is ordered before duplicates go.
            ordered = sorter.first(selected?.distinct == true ? matching.count : skip + take)
        }
        // SELECT [DISTINCT] fields … ORDER BY … LIMIT/OFFSET: projection and DISTINCT before paging.
        var page: [DTOObject]
        if let selected {
            let columns = selected.names.map { (name: $0, values: store.values[positions[$0]!]) }
            page = ordered.map { index in DTOObject(columns.map { ($0.name, $0.values[index]) }) }
            if selected.distinct { page = Self.distinct(page) }
            page = Array(page.dropFirst(skip).prefix(take))
        } else {
            page = ordered.dropFirst(skip).prefix(take).map(store.row)
        }
        return AutoQueryResult(offset: skip, total: total, rows: page, meta: meta)
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
            if trimmed.equalsIgnoringASCIICase("Random") {
                return Ordering(keys: [], randomSeed: query.randomSeed ?? 0)
            }
            let descending = trimmed.hasPrefix("-")
            let name = descending ? trimmed.dropFirst() : trimmed
            guard let field = resolver.field(named: name) else {
                throw ServiceError(.argument, "Could not find field \(name)")
            }
            // A field already ordered by decides nothing more.
            if !keys.contains(where: { $0.field == field }) { keys.append((field, descending != inverted)) }
        }
        if positions[primaryKey] != nil, !keys.contains(where: { $0.field == primaryKey }) {
            keys.append((primaryKey, false))
        }
        return Ordering(keys: keys, randomSeed: nil)
    }

    /// The indices of `rows` in the order `keys` give (a stable sort) in SQLite's order: NULL
    /// before every value ascending, after every value descending. Each row's key values are
    /// read once rather than at every comparison.
    static func sortedIndices(of rows: [DTOObject], by keys: [(field: String, descending: Bool)]) -> [Int] {
        let values = rows.map { row in keys.map { row[$0.field] } }
        return rows.indices.sorted { a, b in
            for (position, key) in keys.enumerated() {
                if let order = order(values[a][position], values[b][position], descending: key.descending) {
                    return order
                }
            }
            return false
        }
    }

    /// Whether `a` goes before `b` (nulls first, then SQL's order, reversed when descending),
    /// or nil when they tie.
    private static func order(_ a: DTOValue, _ b: DTOValue, descending: Bool) -> Bool? {
        let comparison: Int
        switch (a.isNull, b.isNull) {
        case (true, true): return nil
        case (true, false): comparison = -1
        case (false, true): comparison = 1
        case (false, false): comparison = SQLOrdering.compare(a, b) ?? 0
        }
        if comparison != 0 { return descending ? comparison > 0 : comparison < 0 }
        return nil
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
            if let field = resolver.field(named: item.trimmingASCIISpace()), !names.contains(field) {
                names.append(field)
            }
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

    public init(
        conditions: [(condition: QueryCondition, term: Term)] = [], defaultTerm: Term = .and, skip: Int? = nil,
        take: Int? = nil,
        orderBy: [String]? = nil, orderByDesc: [String]? = nil, fields: String? = nil, include: [String] = [],
        randomSeed: UInt64? = nil
    ) {
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
    /// The conditions ready to test the rows of `store` (patterns and `IN` lists prepared once).
    func prepared(against store: ColumnStore) -> PreparedQuery {
        PreparedQuery(
            conditions: conditions.map { (PreparedCondition($0.condition, store: store), $0.term) },
            defaultTerm: defaultTerm)
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

    func matches(row: Int, scratch: inout [UInt8]) -> Bool {
        for condition in ensured where !condition.matches(row: row, scratch: &scratch) { return false }
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
            if group { group = entry.condition.matches(row: row, scratch: &scratch) }
        }
        return anyGroup || group
    }
}

/// A page of results: `offset`, `total`, the rows, and the `meta` of aggregates (nil where
/// AutoQuery sets it to null: left out of the answer).
public struct AutoQueryResult: Sendable, Equatable {
    public var offset: Int
    public var total: Int
    public var rows: [DTOObject]
    public var meta: [DTOMapEntry]?
}
