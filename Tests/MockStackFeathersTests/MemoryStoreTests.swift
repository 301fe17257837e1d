import MockStackCore
import Testing
@testable import MockStackFeathers

/// The store's order and its JSON size, as records come and go: integer-like keys ascending,
/// the others as first inserted, whatever was removed in between.
@Suite struct MemoryStoreTests {
    private func keys(_ store: MemoryStore) -> [String] {
        store.values.map { MemoryStore.key($0["id"] ?? .null) }
    }

    @Test func integerKeysComeFirstInOrderAndOthersAsInserted() {
        var store = MemoryStore(idField: "id", startId: 5)
        for id: JSONValue in ["b", 10, "a", 2, "01", 4_294_967_295, 4_294_967_294, "-1", 0] { store.create(["id": id]) }
        // `01`, `-1` and 2³² − 1 are not array indices: they keep their insertion order. 0 is
        // falsy: that record took the next automatic id, 5.
        #expect(keys(store) == ["2", "5", "10", "4294967294", "b", "a", "01", "4294967295", "-1"])
        #expect(store.count == 9)
    }

    @Test func aReplacedRecordKeepsItsPlaceAndARemovedOneLeavesNoGap() {
        var store = MemoryStore(idField: "id")
        for id in ["x", "y", "z"] { store.create(["id": .string(id), "v": 1]) }
        store.create(["id": "x", "v": 2])
        #expect(keys(store) == ["x", "y", "z"])
        #expect(store.record(forKey: "x")?["v"] == 2)
        #expect(store.remove(key: "y")?["id"] == "y")
        #expect(store.remove(key: "y") == nil)
        store.create(["id": "y"])
        #expect(keys(store) == ["x", "z", "y"])
        #expect(store.values { $0["v"] != nil }.count == 2)
    }

    @Test func manyRemovalsKeepTheOrderAndTheSize() {
        var store = MemoryStore(idField: "id")
        var expected: [String] = []
        for n in 0..<200 {
            store.create(["id": .string("r\(n)"), "name": .string("n\(n % 10)")])
            expected.append("r\(n)")
            if n >= 40 {
                store.remove(key: "r\(n - 40)")
                expected.removeAll { $0 == "r\(n - 40)" }
            }
            if n % 7 == 0 { store.create(["id": .string("r\(n)"), "name": "changed"]) }
        }
        #expect(keys(store) == expected)
        #expect(store.byteCount == store.values.reduce(0) { $0 + JSONValue.object($1).encoded().count })
        for key in expected { #expect(store.record(forKey: key)?["id"] == .string(key)) }
    }

    @Test func sizeIsTheEncodedLength() {
        let records: [JSONObject] = [
            [:],
            ["id": 1],
            ["text": "quote \" backslash \\ newline \n tab \t return \r bell \u{07} nul \u{00} ff \u{0C} bs \u{08}"],
            ["é": "ünïcødé ✓ 🎉", "n": .number(JSONNumber(literal: "-1.50e3")), "flags": [true, false, nil]],
            ["nested": ["a": [1, ["b": "c"]], "empty": [], "object": [:]]],
        ]
        for record in records {
            #expect(MemoryStore.size(of: record) == JSONValue.object(record).encoded().count)
        }
    }
}
