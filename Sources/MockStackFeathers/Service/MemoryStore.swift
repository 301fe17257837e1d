public import MockStackCore

/// The records of one memory service, as `@feathersjs/memory` keeps them (spec §6): in a
/// JavaScript object keyed by the id's text, so `'1'` finds `1`, and listed in that object's
/// key order — integer-like keys ascending, then the others as inserted.
public struct MemoryStore: Sendable {
    public let idField: String
    private var records: [String: JSONObject] = [:]
    /// Keys that are not integer-like, in insertion order.
    private var namedKeys: [String] = []
    /// The next automatic id (`startId`, then one more each time one is used).
    private var nextId: Int
    /// The records' size written as JSON, kept up to date as they change: what a service's
    /// ``ServiceOptions/storeLimitBytes`` counts.
    public private(set) var byteCount = 0

    /// - Parameter seed: records added as if created through the service, in order; automatic
    ///   ids then continue after the highest numeric id they hold.
    public init(idField: String, startId: Int = 0, seed: [JSONObject] = []) {
        self.idField = idField
        nextId = startId
        for record in seed { create(record) }
        let highest = records.values.compactMap { $0[idField]?.intValue }.max()
        if let highest, highest >= nextId { nextId = highest + 1 }
    }

    /// Every record in the store's order.
    public var values: [JSONObject] {
        let numbered = records.keys.compactMap { key in Self.integerKey(key).map { ($0, key) } }.sorted { $0.0 < $1.0 }
        return numbered.map { records[$0.1]! } + namedKeys.map { records[$0]! }
    }

    public func record(forKey key: String) -> JSONObject? { records[key] }

    /// Adds a record: its id if truthy, else the next automatic id (memory's `data[id] || uId++`).
    /// An existing record with that id is replaced.
    @discardableResult
    public mutating func create(_ data: JSONObject) -> JSONObject {
        var record = data
        let id = id(forCreating: data)
        if data[idField].map(Self.isTruthy) != true { nextId += 1 }
        record[idField] = id
        store(record, key: Self.key(id))
        return record
    }

    /// Stores a record under a key (replacing one there).
    public mutating func store(_ record: JSONObject, key: String) {
        let replaced = records.updateValue(record, forKey: key)
        if replaced == nil, Self.integerKey(key) == nil { namedKeys.append(key) }
        byteCount += Self.size(of: record) - (replaced.map(Self.size(of:)) ?? 0)
    }

    @discardableResult
    public mutating func remove(key: String) -> JSONObject? {
        guard let removed = records.removeValue(forKey: key) else { return nil }
        if Self.integerKey(key) == nil { namedKeys.removeAll { $0 == key } }
        byteCount -= Self.size(of: removed)
        return removed
    }

    /// Removes every record under `keys` at once (a multi remove): the named keys' order list
    /// is filtered once, not once per key.
    public mutating func remove(keys: [String]) {
        var named: Set<String> = []
        for key in keys {
            guard let removed = records.removeValue(forKey: key) else { continue }
            byteCount -= Self.size(of: removed)
            if Self.integerKey(key) == nil { named.insert(key) }
        }
        if !named.isEmpty { namedKeys.removeAll { named.contains($0) } }
    }

    /// The id `create` would give `data`: its own when truthy, else the next automatic one.
    public func id(forCreating data: JSONObject) -> JSONValue {
        if let given = data[idField], Self.isTruthy(given) { return given }
        return .number(JSONNumber(nextId))
    }

    /// How many bytes storing `record` under `key` would add (less than 0 when it shrinks).
    public func growth(storing record: JSONObject, key: String) -> Int {
        Self.size(of: record) - (records[key].map(Self.size(of:)) ?? 0)
    }

    /// A record's size written as JSON.
    public static func size(of record: JSONObject) -> Int { JSONValue.object(record).encoded().count }

    /// An id as a JavaScript object key: `1` → `"1"`, `"a"` → `"a"`, `true` → `"true"`.
    public static func key(_ id: JSONValue) -> String {
        switch id {
        case .string(let text): return text
        case .number(let number):
            let value = number.doubleValue
            // Whole numbers as integers where Int64 holds them; beyond, Swift's own form.
            if value.rounded() == value, abs(value) < 9.0e18 { return String(Int64(value)) }
            return value.description
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let items): return items.map { $0 == .null ? "" : key($0) }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// JavaScript truthiness.
    public static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: false
        case .bool(let flag): flag
        case .number(let number): number.doubleValue != 0 && !number.doubleValue.isNaN
        case .string(let text): !text.isEmpty
        case .array, .object: true
        }
    }

    /// A canonical array index, which JavaScript lists first and in numeric order.
    private static func integerKey(_ key: String) -> UInt32? {
        guard let value = UInt32(key), value < UInt32.max, String(value) == key else { return nil }
        return value
    }
}
