import MockStackCore
import MockStackFeathers
import Testing

/// A service's records are bounded: a write that would take them past
/// `storeLimitBytes` is refused with a 400, and changes nothing.
struct StoreLimitTests {
    /// `{"text":"aaaaaaaaaa","id":0}`: 28 bytes.
    static let record: JSONObject = ["text": "aaaaaaaaaa"]
    static let none = FeathersQuery(select: nil)

    private func service(limit: Int) -> MemoryService {
        var options = ServiceOptions(path: "notes")
        options.storeLimitBytes = limit
        return MemoryService(options: options, seed: [])
    }

    private func refusal(_ write: () throws -> Void) -> FeathersError? {
        do {
            try write()
            return nil
        } catch {
            return error as? FeathersError
        }
    }

    @Test func createStopsAtTheLimitAndARemovalMakesRoom() throws {
        #expect(MemoryStore.size(of: ["text": "aaaaaaaaaa", "id": 0]) == 28)
        let notes = service(limit: 28 * 3)
        for _ in 0..<3 { _ = try notes.create(Self.record, Self.none) }
        let error = try #require(refusal { _ = try notes.create(Self.record, Self.none) })
        #expect(error.status == 400)
        #expect(error.kind.name == "BadRequest")
        #expect(error.message == "The notes service holds at most 84 bytes of records (a mockstack limit, storeLimitBytes); remove some or reset the app")
        // The refused record took no id: the next one made is 3.
        #expect(try notes.find(Self.none).json.arrayValue?.count == 3)
        _ = try notes.remove("0", Self.none)
        #expect(try notes.create(Self.record, Self.none)["id"] == 3)
    }

    @Test func updateAndPatchAreCountedByWhatTheyAdd() throws {
        let notes = service(limit: 60)
        _ = try notes.create(Self.record, Self.none)
        _ = try notes.create(Self.record, Self.none)
        // Same size: allowed at the limit's edge. Larger: refused, and the record is unchanged.
        _ = try notes.update("0", ["text": "bbbbbbbbbb"], Self.none)
        #expect(refusal { _ = try notes.update("0", ["text": .string(String(repeating: "c", count: 20))], Self.none) }?.status == 400)
        #expect(try notes.get("0", Self.none)["text"] == "bbbbbbbbbb")
        // A multi patch that would overflow changes no record.
        #expect(refusal { _ = try notes.patch(nil, ["more": "xxxxx"], Self.none) }?.status == 400)
        #expect(try notes.find(Self.none).json.arrayValue?.allSatisfy { $0["more"] == nil } == true)
        // Shrinking always works.
        #expect(try notes.patch("1", ["text": "a"], Self.none).first?["text"] == "a")
    }

    @Test func theDefaultIsSixteenMebibytes() {
        #expect(ServiceOptions(path: "x").storeLimitBytes == 16 * 1024 * 1024)
    }

    /// An app's services and every session's copies share one budget.
    @Test func servicesAndTheirSessionCopiesShareTheAppsBudget() throws {
        let budget = StoreBudget(limit: 28 * 4)
        var options = ServiceOptions(path: "notes")
        options.budget = budget
        let notes = MemoryService(options: options, seed: [Self.record])  // the seed: 28 bytes
        #expect(budget.bytes == 28)
        var session: MemoryService? = notes.freshCopy()  // a session's copy holds the seed too
        #expect(budget.bytes == 56)
        _ = try notes.create(Self.record, Self.none)
        _ = try session?.create(Self.record, Self.none)
        #expect(budget.bytes == 112)
        let error = try #require(refusal { _ = try notes.create(Self.record, Self.none) })
        #expect(error.message == "The notes service's app holds at most 112 bytes of records across its services and sessions (a mockstack limit); remove some or reset the app")
        // A session that goes gives its records back; a reset returns to the seed's weight.
        session = nil
        #expect(budget.bytes == 56)
        notes.reset()
        #expect(budget.bytes == 28)
        _ = try notes.remove(nil, Self.none)
        #expect(budget.bytes == 0)
    }

    @Test func anAppsBudgetIsThirtyTwoMebibytes() {
        #expect(StoreBudget().limit == 32 * 1024 * 1024)
    }
}
