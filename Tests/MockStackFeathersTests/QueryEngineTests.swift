import MockStackCore
import Testing
@testable import MockStackFeathers

/// The query semantics of docs/feathers.md#queries, docs/feathers.md#pagination, docs/feathers.md#the-memory-store on a memory service, without HTTP: filters, operators,
/// strict matching, sorting, `$select`, every `$limit` case of the table per dialect, and
/// the record rules.
@Suite struct QueryEngineTests {
    static let people: [JSONObject] = [["name": "Bob", "age": 25], ["name": "Doug", "age": 32], ["name": "Alice", "age": 19]]

    private func service(_ dialect: FeathersDialect = .v5, paginate: Pagination? = nil, seed: [JSONObject] = people) -> MemoryService {
        var options = ServiceOptions(path: "people")
        options.dialect = dialect
        options.pagination = paginate
        return MemoryService(options: options, seed: seed)
    }

    private func query(_ text: String, _ dialect: FeathersDialect = .v5) throws -> FeathersQuery {
        try FeathersQuery(QSParser().parse(text), dialect: dialect)
    }

    private func names(_ result: FindResult) -> [String] {
        switch result {
        case .records(let records): records.compactMap { $0["name"]?.stringValue }
        case .page(_, _, _, let data): data.compactMap { $0["name"]?.stringValue }
        }
    }

    // MARK: Filters and operators

    @Test func unknownDollarKeysAreRefusedWithTheDialectsMessage() throws {
        #expect(throws: FeathersError(.badRequest, "Invalid filter value $like")) { try query("$like=a") }
        #expect(throws: FeathersError(.badRequest, "Invalid query parameter $like", data: ["$like": "a"])) { try query("text[$like]=a") }
        let v4 = FeathersError(.badRequest, "Invalid query parameter $like", data: ["$like": "a", "x": "1"])
        #expect(throws: v4) { try query("$like=a&x=1", .v4) }
        // v4 has no $and filter but reads $or as an operator.
        #expect(throws: FeathersError.self) { try query("$and[0][a]=1", .v4) }
        #expect(try query("$or[0][name]=Alice", .v4).conditions["$or"] != nil)
        #expect(throws: FeathersError(.badRequest, "Invalid query parameter $regex", data: ["$regex": "x"])) { try query("$or[0][name][$regex]=x") }
    }

    @Test func equalityIsStrict() throws {
        let people = service()
        #expect(names(try people.find(query("name=Alice"))) == ["Alice"])
        // REST values are text: '19' never equals 19, 'true' never true.
        #expect(names(try people.find(query("age=19"))).isEmpty)
        #expect(names(try people.find(query("age[$gt]=20"))).isEmpty)
        #expect(names(try people.find(query("age[$ne]=25"))) == ["Bob", "Doug", "Alice"])
        #expect(names(try people.find(query("name[$in][]=Alice&name[$in][]=Bob"))) == ["Bob", "Alice"])
        #expect(names(try people.find(query("name[$nin][]=Alice&name[$nin][]=Bob"))) == ["Doug"])
        #expect(names(try people.find(query("$or[0][name]=Alice&$or[1][name]=Bob"))) == ["Bob", "Alice"])
        #expect(names(try people.find(query("name[$gt]=B&name[$lt]=D"))) == ["Bob"])
    }

    @Test func typedConditionsCompareWithinTheirType() {
        let conditions: JSONObject = ["age": ["$gt": 18, "$lt": 30]]
        #expect(Self.people.filter { RecordMatcher.matches($0, conditions) }.compactMap { $0["name"]?.stringValue } == ["Bob", "Alice"])
        let nested: JSONObject = ["$or": [["name": "Doug"], ["age": ["$gte": 18, "$lt": 25]]]]
        #expect(Self.people.filter { RecordMatcher.matches($0, nested) }.count == 2)
        #expect(Self.people.filter { RecordMatcher.matches($0, ["$and": [["age": 19]]]) }.count == 1)
        #expect(Self.people.filter { RecordMatcher.matches($0, ["$and": [["$or": [["name": "Alice"]]]]]) }.count == 1)
        #expect(RecordMatcher.matches(["tags": ["a", "b"]], ["tags": "b"]))
        #expect(RecordMatcher.matches(["a": ["b": 1]], ["a.b": 1]))
        #expect(!RecordMatcher.matches(["n": 5], ["n": ["$gt": "4"]]))
    }

    @Test func sortOrdersTypesAndKeepsTies() throws {
        let people = service()
        #expect(names(try people.find(query("$sort[name]=1"))) == ["Alice", "Bob", "Doug"])
        #expect(names(try people.find(query("$sort[name]=-1"))) == ["Doug", "Bob", "Alice"])
        #expect(names(try people.find(query("$sort[name]=0"))) == ["Bob", "Doug", "Alice"])
        let mixed: [JSONObject] = [["v": "a"], ["v": 2], [:], ["v": .null], ["v": true], ["v": [1]], ["v": ["k": 1]], ["v": 1]]
        let sorted = RecordOrder.sorted(mixed, by: [("v", 1)]).map { $0["v"] }
        #expect(sorted == [nil, .null, 1, 2, "a", true, [1], ["k": 1]])
        // UTF-16 order, as JavaScript compares strings: "Z" < "a" < "é".
        #expect(RecordOrder.compareText("Z", "a") == -1 && RecordOrder.compareText("a", "é") == -1)
    }

    @Test func selectKeepsTheIdAlways() throws {
        let people = service()
        let result = try people.find(query("name=Alice&$select[]=name"))
        #expect(result == .records([["name": "Alice", "id": 2]]))
        // The FeathersSwift client's `$select=["name"]` is text: its single characters are picked.
        #expect(try people.find(query("name=Alice&$select=%5B%22name%22%5D")) == .records([[:]]))
        #expect(throws: FeathersError(.generalError, "queryFields.concat is not a function", converted: true)) { try people.find(query("$select[a]=b")) }
    }

    // MARK: $limit, per the table of docs/feathers.md#pagination

    /// Plain services answer arrays of these lengths; paginated ones ({default 5, max 10})
    /// pages whose `limit` is the number given and whose `data` holds that many of the 14.
    @Test(arguments: [
        // (query, v5 plain, v5 paginated, v4 plain, v4 paginated)
        ("", 14, 5, 14, 5), ("$limit=2", 2, 2, 2, 2), ("$limit=2.7", 2, 2, 2, 2), ("$limit=1000", 14, 10, 14, 10),
        ("$limit=0", 0, 0, 0, 0), ("$limit=-1", 14, 5, 1, 1), ("$limit=-20", 14, 5, 14, 10), ("$limit=abc", 14, 5, 14, 5),
    ])
    func limitCases(_ text: String, v5Plain: Int, v5Paged: Int, v4Plain: Int, v4Paged: Int) throws {
        let seed = (0..<14).map { ["name": .string("p\($0)")] as JSONObject }
        let paging = Pagination(defaultLimit: 5, maxLimit: 10)
        #expect(try service(.v5, seed: seed).find(query(text)).json.arrayValue?.count == v5Plain)
        #expect(try service(.v4, seed: seed).find(query(text, .v4)).json.arrayValue?.count == v4Plain)
        for (dialect, expected) in [(FeathersDialect.v5, v5Paged), (.v4, v4Paged)] {
            let page = try service(dialect, paginate: paging, seed: seed).find(query(text, dialect)).json
            #expect(page["total"] == 14 && page["skip"] == 0, "\(text) \(dialect)")
            #expect(page["limit"]?.intValue == expected && page["data"]?.arrayValue?.count == expected, "\(text) \(dialect)")
        }
    }

    @Test func pagesShowTotalLimitAndSkip() throws {
        let paged = service(paginate: Pagination(defaultLimit: 10, maxLimit: 50))
        #expect(try paged.find(query("$limit=2&$skip=1&$sort[name]=1")).json == [
            "total": 3, "limit": 2, "skip": 1, "data": [["name": "Bob", "age": 25, "id": 0], ["name": "Doug", "age": 32, "id": 1]],
        ])
        #expect(try paged.find(query("$limit=0")).json == ["total": 3, "limit": 0, "skip": 0, "data": []])
        #expect(try paged.find(query("name=Doug")).json == ["total": 1, "limit": 10, "skip": 0, "data": [["name": "Doug", "age": 32, "id": 1]]])
        // v5 pages with only a max, at limit 0: a count.
        #expect(try service(paginate: Pagination(defaultLimit: nil, maxLimit: 10)).find(query("")).json == ["total": 3, "limit": 0, "skip": 0, "data": []])
        // v4 pages only with a default.
        #expect(names(try service(.v4, paginate: Pagination(defaultLimit: nil, maxLimit: 10)).find(query("", .v4))).count == 3)
        // A NaN skip shows as 0; a skip too large for a number, as JSON.stringify writes Infinity.
        #expect(try paged.find(query("$skip=x")).json["skip"] == 0)
        #expect(try paged.find(query("$skip=" + String(repeating: "9", count: 400))).json == ["total": 3, "limit": 10, "skip": .null, "data": []])
        // v5 pages with an empty paginate too (limit 0: a count).
        #expect(try service(paginate: Pagination(defaultLimit: nil, maxLimit: nil)).find(query("")).json == ["total": 3, "limit": 0, "skip": 0, "data": []])
    }

    // MARK: Records

    @Test func createAssignsIdsAndOverwrites() throws {
        let store = service(seed: [])
        #expect(try store.create(["text": "a"], FeathersQuery(select: nil)) == ["text": "a", "id": 0])
        #expect(try store.create(["text": "b", "id": 0], FeathersQuery(select: nil))["id"] == 1)
        #expect(try store.create(["text": "c", "id": "x"], FeathersQuery(select: nil))["id"] == "x")
        #expect(try store.create(["text": "d", "id": 1], FeathersQuery(select: nil))["text"] == "d")
        #expect(try store.find(query("")).json.arrayValue?.compactMap { $0["text"]?.stringValue } == ["a", "d", "c"])
    }

    @Test func hugeNumericIdsAreKeysWithoutTrapping() throws {
        let store = service(seed: [])
        #expect(try store.create(["id": .number(JSONNumber(literal: "1e20"))], FeathersQuery(select: nil))["id"] == .number(JSONNumber(literal: "1e20")))
        #expect(MemoryStore.key(.number(JSONNumber(literal: "1e20"))) == "1e+20")
        #expect(MemoryStore.key(.number(JSONNumber(literal: "2.0"))) == "2")
        #expect(MemoryStore.key(.number(JSONNumber(literal: "2.5"))) == "2.5")
    }

    @Test func idsArriveAsTextAndFindNumericRecords() throws {
        let people = service()
        #expect(try people.get("1", query(""))["name"] == "Doug")
        #expect(throws: FeathersError.notFound(id: "9")) { try people.get("9", query("")) }
        #expect(throws: FeathersError.notFound(id: "1")) { try people.get("1", query("name=Tester")) }
        // update keeps the numeric id type; patch merges and ignores a body id.
        #expect(try people.update("1", ["name": "Dougie", "id": "1"], query("")) == ["name": "Dougie", "id": 1])
        #expect(try people.patch("0", ["age": 26, "id": 99], query("")) == [["name": "Bob", "age": 26, "id": 0]])
        #expect(try people.remove("2", query("$select[]=name")) == [["name": "Alice", "id": 2]])
        #expect(throws: FeathersError.notFound(id: "2")) { try people.get("2", query("")) }
    }

    @Test func multiPatchAndRemoveIgnoreLimitsAndReselectById() throws {
        let seed = (0..<14).map { ["age": .number(JSONNumber($0 % 2 == 0 ? 10 : 40))] as JSONObject }
        var options = ServiceOptions(path: "p")
        options.pagination = Pagination(defaultLimit: 10, maxLimit: 100)
        let people = MemoryService(options: options, seed: seed)
        let patched = try people.patch(nil, ["age": 2], FeathersQuery(["age": 10, "$limit": "1"], dialect: .v5))
        #expect(patched.count == 7 && patched.allSatisfy { $0["age"] == 2 })
        #expect(try people.remove(nil, FeathersQuery([:], dialect: .v5)).count == 14)
        people.reset()
        #expect(try people.find(FeathersQuery([:], dialect: .v5)).json["total"] == 14)
    }
}
