public import MockStackCore
import Synchronization

/// The six service methods (docs/feathers.md#service-methods).
public enum ServiceMethod: String, Sendable, CaseIterable {
    case find, get, create, update, patch, remove
}

/// What `find` answers: a plain array, or a page `{total, limit, skip, data}` (docs/feathers.md#pagination).
public enum FindResult: Sendable, Equatable {
    /// A number as JSON.stringify writes it: NaN and the infinities as null.
    private static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return value.rounded() == value && abs(value) < 9.0e18
            ? .number(JSONNumber(Int(value))) : .number(JSONNumber(value))
    }

    case records([JSONObject])
    case page(total: Int, limit: Double?, skip: Double, data: [JSONObject])

    public var json: JSONValue {
        switch self {
        case .records(let records): return .array(records.map(JSONValue.object))
        case .page(let total, let limit, let skip, let data):
            return .object([
                "total": .number(JSONNumber(total)), "limit": Self.number(limit), "skip": Self.number(skip),
                "data": .array(data.map(JSONValue.object)),
            ])
        }
    }
}

/// One `@feathersjs/memory` service (docs/feathers.md#the-memory-store): its records behind a lock,
/// so requests on every event-loop thread see one consistent store, and the query semantics of
/// docs/feathers.md#queries, docs/feathers.md#pagination.
public final class MemoryService: Sendable {
    public let options: ServiceOptions
    private let seed: MemoryStore
    private let store: Mutex<MemoryStore>
    /// `people.find` … `people.remove`, in ``ServiceMethod``'s order.
    private let operationNames: [String]
    /// ``ServiceOptions/methods`` and ``ServiceOptions/authenticate`` as bits in that order:
    /// asked on every call, without hashing.
    private let exposed: UInt8, guarded: UInt8

    public convenience init(options: ServiceOptions, seed: [JSONObject]) {
        self.init(options: options, store: MemoryStore(idField: options.idField, startId: options.startId, seed: seed))
    }

    /// The same service with the fixture's records, for a session of its own.
    public func freshCopy() -> MemoryService { MemoryService(options: options, store: seed) }

    private init(options: ServiceOptions, store seed: MemoryStore) {
        self.options = options
        self.seed = seed
        store = Mutex(seed)
        operationNames = ServiceMethod.allCases.map { options.path + "." + $0.rawValue }
        exposed = options.methods.reduce(0) { $0 | Self.bit($1) }
        guarded = options.authenticate.reduce(0) { $0 | Self.bit($1) }
        options.budget?.adjust(by: seed.byteCount)
    }

    /// What the journal calls a call of `method` (`people.find`).
    public func operationName(_ method: ServiceMethod) -> String { operationNames[Self.position(method)] }

    /// Whether the service has `method` (``ServiceOptions/methods``).
    public func exposes(_ method: ServiceMethod) -> Bool { exposed & Self.bit(method) != 0 }

    /// Whether `method` needs a valid JWT (``ServiceOptions/authenticate``).
    public func needsToken(_ method: ServiceMethod) -> Bool { guarded & Self.bit(method) != 0 }

    /// `method`'s place in ``ServiceMethod/allCases``.
    private static func position(_ method: ServiceMethod) -> Int {
        switch method {
        case .find: 0
        case .get: 1
        case .create: 2
        case .update: 3
        case .patch: 4
        case .remove: 5
        }
    }

    private static func bit(_ method: ServiceMethod) -> UInt8 { 1 << position(method) }

    deinit {
        let held = store.withLock { $0.byteCount }
        options.budget?.adjust(by: -held)
    }

    /// Back to the fixture's records and automatic ids.
    public func reset() {
        store.withLock { store in
            options.budget?.adjust(by: seed.byteCount - store.byteCount)
            store = seed
        }
    }

    // MARK: Methods

    public func find(_ query: FeathersQuery) throws(FeathersError) -> FindResult {
        // The adapter builds its matcher whatever the store holds.
        if let failure = query.matcherFailure { throw failure }
        // A copy of the store is a few references: the records are read outside the lock, and
        // a write meanwhile copies the store's arrays rather than changing these.
        let records = store.withLock { $0 }
        let paginated = options.pagination?.pages(options.dialect) ?? false
        let limit = paginated ? options.pagination?.limit(query.limit, options.dialect) : query.limit
        // Filtered, then sorted: the sort is stable, so this is the order sorting first gives.
        let filtered =
            query.conditions.members.isEmpty
            ? records.values : records.values(where: RecordMatcher.predicate(query.conditions))
        let matched = query.sort.map { RecordOrder.sorted(filtered, by: $0) } ?? filtered
        var data: [JSONObject] = []
        if limit != 0 {
            let skip = query.skip.map { $0.isNaN ? 0 : max(0, $0) } ?? 0
            for record in matched.dropFirst(Int(min(skip, Double(matched.count)))) {
                data.append(try select(record, query))
                if let limit, Double(data.count) == limit { break }
            }
        }
        guard paginated else { return .records(data) }
        let skipShown = query.skip.map { $0.isNaN ? 0 : $0 } ?? 0
        return .page(total: matched.count, limit: limit, skip: skipShown, data: data)
    }

    public func get(_ id: String, _ query: FeathersQuery) throws(FeathersError) -> JSONObject {
        try select(existing(id, query), query)
    }

    /// Adds one record (an array body calls this once per element, in order).
    public func create(_ data: JSONObject, _ query: FeathersQuery) throws(FeathersError) -> JSONObject {
        let record = try store.withLock { (store: inout MemoryStore) throws(FeathersError) -> JSONObject in
            let byteCount = store.byteCount
            return try store.create(data) { (growth: Int) throws(FeathersError) in
                try checkRoom(growth, byteCount: byteCount)
            }
        }
        return try select(record, query)
    }

    /// Full replace: the record becomes the body plus the id, which keeps its stored type when
    /// the URL's text equals it loosely (`'1'` and `1`). A query sift cannot build a matcher
    /// from fails only after the record is replaced, as the adapter reads the record back with
    /// the query once it has stored it.
    public func update(_ id: String, _ data: JSONObject, _ query: FeathersQuery) throws(FeathersError) -> JSONObject {
        let record: JSONObject = try store.withLock { (store: inout MemoryStore) throws(FeathersError) -> JSONObject in
            let old = try Self.existing(id, query.matcherFailure == nil ? query : FeathersQuery(select: nil), in: store)
            // Found under the URL's text, so the stored id keeps its own type.
            var replaced = data
            replaced[options.idField] = old[options.idField] ?? .string(id)
            let size = MemoryStore.size(of: replaced)
            try checkRoom(store.growth(ofSize: size, key: id), byteCount: store.byteCount)
            store.store(replaced, key: id, size: size)
            return replaced
        }
        if let failure = query.matcherFailure { throw failure }
        return try select(record, query)
    }

    /// Merge, ignoring an id in the body; `id == nil` patches every match and returns them
    /// re-read by id, without running the query again.
    public func patch(_ id: String?, _ data: JSONObject, _ query: FeathersQuery) throws(FeathersError) -> [JSONObject] {
        let changes = JSONObject(data.members.filter { $0.key != options.idField })
        let records: [JSONObject] = try store.withLock {
            (store: inout MemoryStore) throws(FeathersError) -> [JSONObject] in
            let targets =
                if let id { [try Self.existing(id, query, in: store)] } else { try Self.matches(query, in: store) }
            let merged = targets.map { target in
                let key = MemoryStore.key(target[options.idField] ?? .null)
                var merged = store.record(forKey: key) ?? target
                merged.merge(changes)
                return (key: key, record: merged, size: MemoryStore.size(of: merged))
            }
            // All or nothing: a multi patch that would overflow the store changes no record.
            try checkRoom(
                merged.reduce(0) { $0 + store.growth(ofSize: $1.size, key: $1.key) }, byteCount: store.byteCount)
            for (key, record, size) in merged { store.store(record, key: key, size: size) }
            return merged.map(\.record)
        }
        return try records.map { (record: JSONObject) throws(FeathersError) -> JSONObject in try select(record, query) }
    }

    /// Removes one record, or (`id == nil`) every match.
    public func remove(_ id: String?, _ query: FeathersQuery) throws(FeathersError) -> [JSONObject] {
        let removed: [JSONObject] = try store.withLock {
            (store: inout MemoryStore) throws(FeathersError) -> [JSONObject] in
            let before = store.byteCount
            defer { options.budget?.adjust(by: store.byteCount - before) }
            if let id {
                let record = try Self.existing(id, query, in: store)
                store.remove(key: id)
                return [record]
            }
            let targets = try Self.matches(query, in: store)
            store.remove(keys: targets.map { MemoryStore.key($0[options.idField] ?? .null) })
            return targets
        }
        return try removed.map { (record: JSONObject) throws(FeathersError) -> JSONObject in try select(record, query) }
    }

    /// A record as an external caller sees it: without the secret field (the entity
    /// service's password).
    public func external(_ record: JSONObject) -> JSONObject {
        guard let field = options.secretField, record[field] != nil else { return record }
        return JSONObject(record.members.filter { $0.key != field })
    }

    // MARK: Helpers

    /// Refuses a write that would take the records past ``ServiceOptions/storeLimitBytes`` or
    /// the app's ``StoreBudget``; else counts it against the budget (the write follows at once,
    /// under the same lock).
    private func checkRoom(_ growth: Int, byteCount: Int) throws(FeathersError) {
        guard growth > 0 else { return options.budget?.adjust(by: growth) ?? () }
        if byteCount + growth > options.storeLimitBytes {
            throw FeathersError.storeFull(options.path, limit: options.storeLimitBytes)
        }
        if let budget = options.budget, !budget.reserve(growth) {
            throw FeathersError.appStoresFull(options.path, limit: budget.limit)
        }
    }

    private func existing(_ id: String, _ query: FeathersQuery) throws(FeathersError) -> JSONObject {
        try store.withLock { (store: inout MemoryStore) throws(FeathersError) -> JSONObject in
            try Self.existing(id, query, in: store)
        }
    }

    /// The record stored under the id's text that also matches the query, else 404. The
    /// adapter builds its matcher only for a record it has, so a query it cannot build one
    /// from fails only then.
    private static func existing(
        _ id: String, _ query: FeathersQuery, in store: MemoryStore
    ) throws(FeathersError) -> JSONObject {
        guard let record = store.record(forKey: id) else { throw FeathersError.notFound(id: id) }
        if let failure = query.matcherFailure { throw failure }
        guard RecordMatcher.matches(record, query.conditions) else { throw FeathersError.notFound(id: id) }
        return record
    }

    /// Multi patch and remove: every match, ignoring `$limit`, `$skip` and pagination.
    private static func matches(_ query: FeathersQuery, in store: MemoryStore) throws(FeathersError) -> [JSONObject] {
        if let failure = query.matcherFailure { throw failure }
        return store.values(where: RecordMatcher.predicate(query.conditions))
    }

    /// `$select`: the listed fields and the id, in that order (lodash's `pick`). A `$select`
    /// that is text picks its single characters, as spreading a string does in JavaScript
    /// (the FeathersSwift client's `$select=["a", "b"]` so selects nothing); anything else
    /// fails as `concat` does on it.
    func select(_ record: JSONObject, _ query: FeathersQuery) throws(FeathersError) -> JSONObject {
        guard let select = query.select else { return record }
        let fields: [String]
        switch select {
        case .array(let items): fields = items.compactMap(\.stringValue) + [options.idField]
        case .string(let text): fields = (text + options.idField).map(String.init)
        default: throw FeathersError(.generalError, "queryFields.concat is not a function", converted: true)
        }
        var picked = JSONObject()
        for field in fields where picked[field] == nil {
            if let value = record[field] { picked[field] = value }
        }
        return picked
    }
}
