public import MockStackCore

/// The records of one memory service, as `@feathersjs/memory` keeps them (docs/feathers.md#the-memory-store): in a
/// JavaScript object keyed by the id's text, so `'1'` finds `1`, and listed in that object's
/// key order — integer-like keys ascending, then the others as inserted.
///
/// Both orders are kept as the records change, so listing them (every `find`) neither sorts
/// nor hashes: the integer-like keys in an array sorted by their value, the others in an array
/// in insertion order with a hole where one was removed (closed up once holes are half of it),
/// found by key through a dictionary of positions. Each record's JSON size is kept beside it,
/// so a write measures only the record it stores.
public struct MemoryStore: Sendable {
    public let idField: String
    /// Records under integer-like keys, sorted by the key's value.
    private var numbered: [(number: UInt32, entry: Entry)] = []
    /// Records under other keys in insertion order; nil where one was removed.
    private var named: [Entry?] = []
    /// Where each of `named`'s keys is.
    private var namedPositions: [String: Int] = [:]
    /// How many of `named`'s slots are holes.
    private var holes = 0
    /// The next automatic id (`startId`, then one more each time one is used).
    private var nextId: Int
    /// The records' size written as JSON, kept up to date as they change: what a service's
    /// ``ServiceOptions/storeLimitBytes`` counts.
    public private(set) var byteCount = 0

    /// A stored record, its key and its size as JSON.
    private struct Entry {
        var key: String
        var record: JSONObject
        var size: Int
    }

    /// - Parameter seed: records added as if created through the service, in order; automatic
    ///   ids then continue after the highest numeric id they hold.
    public init(idField: String, startId: Int = 0, seed: [JSONObject] = []) {
        self.idField = idField
        nextId = startId
        for record in seed { create(record) }
        let highest = values.compactMap { $0[idField]?.intValue }.max()
        if let highest, highest >= nextId { nextId = highest + 1 }
    }

    /// How many records there are.
    public var count: Int { numbered.count + named.count - holes }

    /// Every record in the store's order.
    public var values: [JSONObject] { values { _ in true } }

    /// The records `isIncluded` accepts, in the store's order.
    public func values(where isIncluded: (JSONObject) -> Bool) -> [JSONObject] {
        var result: [JSONObject] = []
        for (_, entry) in numbered where isIncluded(entry.record) { result.append(entry.record) }
        for case let entry? in named where isIncluded(entry.record) { result.append(entry.record) }
        return result
    }

    public func record(forKey key: String) -> JSONObject? { entry(forKey: key)?.record }

    /// Adds a record: its id if truthy, else the next automatic id (memory's `data[id] || uId++`).
    /// An existing record with that id is replaced.
    @discardableResult
    public mutating func create(_ data: JSONObject) -> JSONObject {
        create(data) { (_: Int) throws(Never) in }
    }

    /// ``create(_:)``, once `room` has accepted the bytes it adds (less than 0 when it replaces
    /// a larger record); when `room` throws, nothing changes and no automatic id is used.
    public mutating func create<Failure: Error>(
        _ data: JSONObject, room: (_ growth: Int) throws(Failure) -> Void
    ) throws(Failure) -> JSONObject {
        let automatic = data[idField].map(Self.isTruthy) != true
        let id = id(forCreating: data)
        var record = data
        record[idField] = id
        let key = Self.key(id)
        let size = Self.size(of: record)
        try room(growth(ofSize: size, key: key))
        if automatic { nextId += 1 }
        store(record, key: key, size: size)
        return record
    }

    /// Stores a record under a key (replacing one there).
    public mutating func store(_ record: JSONObject, key: String) {
        store(record, key: key, size: Self.size(of: record))
    }

    /// Stores a record whose ``size(of:)`` is known under a key (replacing one there).
    public mutating func store(_ record: JSONObject, key: String, size: Int) {
        let entry = Entry(key: key, record: record, size: size)
        if let number = Self.integerKey(key) {
            let position = numberedPosition(of: number)
            if position < numbered.count, numbered[position].number == number {
                byteCount += size - numbered[position].entry.size
                numbered[position].entry = entry
            } else {
                byteCount += size
                numbered.insert((number, entry), at: position)
            }
        } else if let position = namedPositions[key] {
            byteCount += size - (named[position]?.size ?? 0)
            named[position] = entry
        } else {
            byteCount += size
            namedPositions[key] = named.count
            named.append(entry)
        }
    }

    @discardableResult
    public mutating func remove(key: String) -> JSONObject? {
        let removed: Entry
        if let number = Self.integerKey(key) {
            let position = numberedPosition(of: number)
            guard position < numbered.count, numbered[position].number == number else { return nil }
            removed = numbered.remove(at: position).entry
        } else {
            guard let position = namedPositions.removeValue(forKey: key), let entry = named[position] else {
                return nil
            }
            removed = entry
            named[position] = nil
            holes += 1
            if holes > 16, holes * 2 > named.count { closeHoles() }
        }
        byteCount -= removed.size
        return removed.record
    }

    /// Removes every record under `keys` (a multi remove).
    public mutating func remove(keys: [String]) {
        for key in keys { remove(key: key) }
    }

    /// The id `create` would give `data`: its own when truthy, else the next automatic one.
    public func id(forCreating data: JSONObject) -> JSONValue {
        if let given = data[idField], Self.isTruthy(given) { return given }
        return .number(JSONNumber(nextId))
    }

    /// How many bytes storing a record of `size` under `key` would add (less than 0 when it
    /// shrinks).
    public func growth(ofSize size: Int, key: String) -> Int {
        size - (entry(forKey: key)?.size ?? 0)
    }

    /// How many bytes storing `record` under `key` would add (less than 0 when it shrinks).
    public func growth(storing record: JSONObject, key: String) -> Int {
        growth(ofSize: Self.size(of: record), key: key)
    }

    /// A record's size written as JSON (``JSONValue/encoded(escaping:)``), counted without
    /// writing it.
    public static func size(of record: JSONObject) -> Int { JSONSize.of(record) }

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

    // MARK: Positions

    private func entry(forKey key: String) -> Entry? {
        if let number = Self.integerKey(key) {
            let position = numberedPosition(of: number)
            return position < numbered.count && numbered[position].number == number ? numbered[position].entry : nil
        }
        return namedPositions[key].flatMap { named[$0] }
    }

    /// Where `number` is in `numbered`, or where it would go.
    private func numberedPosition(of number: UInt32) -> Int {
        var low = 0
        var high = numbered.count
        while low < high {
            let middle = (low + high) / 2
            if numbered[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `named` without its holes, and the positions renumbered.
    private mutating func closeHoles() {
        named = named.filter { $0 != nil }
        namedPositions.removeAll(keepingCapacity: true)
        for (position, entry) in named.enumerated() { namedPositions[entry!.key] = position }
        holes = 0
    }

    /// A canonical array index, which JavaScript lists first and in numeric order: digits
    /// only, no leading zero (but `0` itself), below 2³² − 1.
    static func integerKey(_ key: String) -> UInt32? {
        var value: UInt64 = 0
        var digits = 0
        for byte in key.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 10 else { return nil }
            if digits == 1, value == 0 { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0, value < UInt64(UInt32.max) else { return nil }
        return UInt32(value)
    }
}
