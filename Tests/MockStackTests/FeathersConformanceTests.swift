import Foundation
import MockStackCore
import Testing

/// `@feathersjs/adapter-tests` (v5.0.24) over HTTP (docs/feathers.md#conformance): every case the memory adapter
/// runs, named as the suite names it, plus the v5 `no-mem` ones. Fixtures as the suite's:
/// `{name, age}` records, Doug (32) for the method cases, Bob (25), Doug (32), Alice (19) for
/// the syntax cases. The services declare a schema and `coerce`, as a generated app's do, so
/// the cases that compare numbers (‡) pass over REST; `StrictQueryTests` shows them failing
/// without it. Cases that change service options (cfg) use a service configured that way.
@Suite(.timeLimit(.minutes(3)))
struct FeathersConformanceTests {
    static let schema = #""schema": {"id": "number", "name": "string", "age": "number", "created": "boolean"}, "coerce": true"#
    static let services = """
    {
      "people": {\(schema)},
      "people-customid": {"id": "customid", \(schema)},
      "people-multi": {"multi": true, \(schema)},
      "people-remove-multi": {"multi": ["remove"], \(schema)},
      "people-paged": {"paginate": {"default": 1, "max": 2}, \(schema)},
      "people-paged-3": {"paginate": {"default": 3}, "multi": ["create"], \(schema)},
      "people-big": {"paginate": {"default": 10, "max": 100}, "multi": true, \(schema)}
    }
    """
    let server: FeathersTestServer

    init() throws {
        server = try FeathersTestServer(services: Self.services)
    }

    private func doug(_ path: String = "/people") async throws -> String {
        let created = try await server.seed(path, [#"{"name": "Doug", "age": 32}"#])
        return MemoryKey(created[0]["id"])
    }

    private func syntax(_ path: String = "/people") async throws {
        try await server.seed(path, [#"{"name": "Bob", "age": 25}"#, #"{"name": "Doug", "age": 32}"#, #"{"name": "Alice", "age": 19}"#])
    }

    private func MemoryKey(_ id: JSONValue?) -> String {
        switch id {
        case .number(let n)?: n.literal
        case .string(let s)?: s
        default: "?"
        }
    }

    // MARK: Basic

    @Test(".id") func id() async throws {
        let created = try await server.seed("/people-customid", [#"{"name": "Doug"}"#])
        #expect(created[0] == ["name": "Doug", "customid": 0])
        #expect(try await server.send("GET", "/people-customid/0").json == ["name": "Doug", "customid": 0])
    }

    // MARK: Methods

    @Test(".get") func get() async throws {
        let id = try await doug()
        #expect(try await server.send("GET", "/people/\(id)").json == ["name": "Doug", "age": 32, "id": 0])
    }

    @Test(".find") func find() async throws {
        _ = try await doug()
        #expect(try await server.send("GET", "/people").json == [["name": "Doug", "age": 32, "id": 0]])
    }

    @Test(".remove") func remove() async throws {
        let id = try await doug()
        let reply = try await server.send("DELETE", "/people/\(id)")
        #expect(reply.status == 200 && reply.json == ["name": "Doug", "age": 32, "id": 0])
        #expect(try await server.send("GET", "/people").json == [])
    }

    @Test(".update") func update() async throws {
        let id = try await doug()
        let reply = try await server.send("PUT", "/people/\(id)", json: #"{"name": "Dougler"}"#)
        #expect(reply.status == 200 && reply.json == ["name": "Dougler", "id": 0])
    }

    @Test(".patch") func patch() async throws {
        let id = try await doug()
        #expect(try await server.send("PATCH", "/people/\(id)", json: #"{"name": "PatchDoug"}"#).json == ["name": "PatchDoug", "age": 32, "id": 0])
    }

    @Test(".create") func create() async throws {
        let reply = try await server.send("POST", "/people", json: #"{"name": "Bill", "age": 40}"#)
        #expect(reply.status == 201 && reply.json == ["name": "Bill", "age": 40, "id": 0])
    }

    @Test(".get + $select, .remove + $select, .update + $select, .patch + $select, .create + $select") func selects() async throws {
        let id = try await doug()
        #expect(try await server.send("GET", "/people/\(id)?$select[]=name").json == ["name": "Doug", "id": 0])
        #expect(try await server.send("PUT", "/people/\(id)?$select[]=name", json: #"{"name": "Dougler", "age": 10}"#).json == ["name": "Dougler", "id": 0])
        #expect(try await server.send("PATCH", "/people/\(id)?$select[]=name", json: #"{"name": "PatchDoug"}"#).json == ["name": "PatchDoug", "id": 0])
        #expect(try await server.send("DELETE", "/people/\(id)?$select[]=name").json == ["name": "PatchDoug", "id": 0])
        #expect(try await server.send("POST", "/people?$select[]=name", json: #"{"name": "William", "age": 23}"#).json == ["name": "William", "id": 1])
    }

    @Test(".get + id + query, .remove + id + query, .update + id + query, .patch + id + query") func idAndQuery() async throws {
        let id = try await doug()
        let notFound = #"{"name":"NotFound","message":"No record found for id '0'","code":404,"className":"not-found"}"#
        for (method, body) in [("GET", nil), ("DELETE", nil), ("PUT", #"{"name": "X"}"#), ("PATCH", #"{"name": "X"}"#)] as [(String, String?)] {
            let reply = try await server.send(method, "/people/\(id)?name=Tester", json: body)
            #expect(reply.status == 404 && reply.text == notFound, "\(method)")
        }
    }

    @Test(".get + id + query id, .remove + id + query id, .update + id + query id, .patch + id + query id") func idAndQueryId() async throws {
        let id = try await doug()
        let other = try await server.seed("/people", [#"{"name": "Tester", "age": 33}"#])[0]["id"]!
        for (method, body) in [("GET", nil), ("DELETE", nil), ("PUT", #"{"name": "X"}"#), ("PATCH", #"{"name": "X"}"#)] as [(String, String?)] {
            let reply = try await server.send(method, "/people/\(id)?id=\(MemoryKey(other))", json: body)
            #expect(reply.status == 404, "\(method)")
        }
    }

    @Test(".get + NotFound, .update + NotFound, .patch + NotFound") func notFound() async throws {
        let unknown = "568225fbfe21222432e836ff"
        let message = #"{"name":"NotFound","message":"No record found for id '568225fbfe21222432e836ff'","code":404,"className":"not-found"}"#
        #expect(try await server.send("GET", "/people/\(unknown)").text == message)
        #expect(try await server.send("PUT", "/people/\(unknown)", json: #"{"name": "NotFound"}"#).text == message)
        #expect(try await server.send("PATCH", "/people/\(unknown)", json: #"{"name": "NotFound"}"#).text == message)
    }

    @Test(".update + query + NotFound, .patch + query + NotFound") func queryNotFound() async throws {
        let id = try await doug()
        #expect(try await server.send("PUT", "/people/\(id)?name=NotDave", json: #"{"name": "NotFound"}"#).status == 404)
        #expect(try await server.send("PATCH", "/people/\(id)?name=NotDave", json: #"{"name": "PatchDoug"}"#).status == 404)
    }

    @Test(".remove + multi") func removeMulti() async throws {
        let refused = try await server.send("DELETE", "/people")
        #expect(refused.status == 405)
        #expect(refused.text == #"{"name":"MethodNotAllowed","message":"Can not remove multiple entries","code":405,"className":"method-not-allowed"}"#)
        try await server.seed("/people-remove-multi", [#"{"name": "Dave", "age": 29, "created": true}"#, #"{"name": "David", "age": 3, "created": true}"#,
                                                       #"{"name": "Doug", "age": 32}"#])
        let removed = try await server.send("DELETE", "/people-remove-multi?created=true")
        #expect(removed.status == 200 && removed.json.names == ["Dave", "David"])
    }

    @Test(".remove + multi no pagination") func removeMultiNoPagination() async throws {
        try await server.seed("/people-big", (0..<14).map { #"{"name": "P\#($0)", "age": 1}"# })
        #expect(try await server.send("GET", "/people-big").json["data"]?.arrayValue?.count == 10)
        #expect(try await server.send("DELETE", "/people-big?age=1").json.arrayValue?.count == 14)
    }

    @Test(".patch multiple") func patchMultiple() async throws {
        let refused = try await server.send("PATCH", "/people", json: #"{"name": "x"}"#)
        #expect(refused.text == #"{"name":"MethodNotAllowed","message":"Can not patch multiple entries","code":405,"className":"method-not-allowed"}"#)
        try await server.seed("/people-multi", [#"{"name": "Dave", "age": 29, "created": true}"#, #"{"name": "David", "age": 3, "created": true}"#,
                                                #"{"name": "Doug", "age": 32}"#])
        let patched = try await server.send("PATCH", "/people-multi?created=true", json: #"{"age": 2}"#)
        #expect(patched.json == [["name": "Dave", "age": 2, "created": true, "id": 0], ["name": "David", "age": 2, "created": true, "id": 1]])
    }

    @Test(".patch multiple no pagination") func patchMultipleNoPagination() async throws {
        try await server.seed("/people-big", (0..<14).map { #"{"name": "P\#($0)", "age": 1}"# })
        #expect(try await server.send("PATCH", "/people-big?age=1", json: #"{"age": 2}"#).json.arrayValue?.count == 14)
    }

    @Test(".patch multi query same") func patchMultiQuerySame() async throws {
        try await server.seed("/people-multi", [#"{"name": "A", "age": 5}"#, #"{"name": "B", "age": 7}"#, #"{"name": "C", "age": 20}"#])
        let patched = try await server.send("PATCH", "/people-multi?age[$lt]=10", json: #"{"age": 2}"#)
        #expect(patched.json.names == ["A", "B"])
    }

    @Test(".patch multi query changed") func patchMultiQueryChanged() async throws {
        try await server.seed("/people-multi", [#"{"name": "A", "age": 10}"#, #"{"name": "B", "age": 10}"#, #"{"name": "C", "age": 20}"#])
        // Re-read by id, so the changed records come back although age=10 no longer matches.
        let patched = try await server.send("PATCH", "/people-multi?age=10", json: #"{"age": 2}"#)
        #expect(patched.json == [["name": "A", "age": 2, "id": 0], ["name": "B", "age": 2, "id": 1]])
    }

    @Test(".create ignores query") func createIgnoresQuery() async throws {
        #expect(try await server.send("POST", "/people?name=Dave", json: #"{"name": "Billy", "age": 42}"#).json == ["name": "Billy", "age": 42, "id": 0])
    }

    @Test(".create multi") func createMulti() async throws {
        let refused = try await server.send("POST", "/people", json: #"[{"name": "Gerald"}, {"name": "Herald"}]"#)
        #expect(refused.text == #"{"name":"MethodNotAllowed","message":"Can not create multiple entries","code":405,"className":"method-not-allowed"}"#)
        let created = try await server.send("POST", "/people-multi", json: #"[{"name": "Gerald", "age": 18}, {"name": "Herald", "age": 18}]"#)
        #expect(created.status == 201 && created.json == [["name": "Gerald", "age": 18, "id": 0], ["name": "Herald", "age": 18, "id": 1]])
    }

    // MARK: Query syntax

    /// The query-syntax cases: name, query string, the names found.
    static let syntaxCases: [(String, String, [String])] = [
        (".find + equal", "name=Alice", ["Alice"]),
        (".find + equal multiple", "name=Alice&age=20", []),
        (".find + $sort", "$sort[name]=1", ["Alice", "Bob", "Doug"]),
        (".find + $sort (descending)", "$sort[name]=-1", ["Doug", "Bob", "Alice"]),
        // Over REST every value is text already, so this is the same request as `.find + $sort`.
        (".find + $sort + string", "$sort[name]=1", ["Alice", "Bob", "Doug"]),
        (".find + $limit", "$limit=2", ["Bob", "Doug"]),
        (".find + $skip", "$sort[name]=1&$skip=1", ["Bob", "Doug"]),
        (".find + $or", "$or[0][name]=Alice&$or[1][name]=Bob&$sort[name]=1", ["Alice", "Bob"]),
        (".find + $in", "name[$in][]=Alice&name[$in][]=Bob&$sort[name]=1", ["Alice", "Bob"]),
        (".find + $nin", "name[$nin][]=Alice&name[$nin][]=Bob", ["Doug"]),
        (".find + $lt", "age[$lt]=30", ["Bob", "Alice"]),
        (".find + $lte", "age[$lte]=25", ["Bob", "Alice"]),
        (".find + $gt", "age[$gt]=30", ["Doug"]),
        (".find + $gte", "age[$gte]=25", ["Bob", "Doug"]),
        (".find + $ne", "age[$ne]=25", ["Doug", "Alice"]),
        (".find + $gt + $lt + $sort", "age[$gt]=18&age[$lt]=30&$sort[name]=1", ["Alice", "Bob"]),
        (".find + $or nested + $sort", "$or[0][name]=Doug&$or[1][age][$gte]=18&$or[1][age][$lt]=25&$sort[name]=1", ["Alice", "Doug"]),
        (".find + $and", "$and[0][age]=19", ["Alice"]),
        (".find + $and + $or", "$and[0][$or][0][name]=Alice", ["Alice"]),
    ]

    @Test(arguments: syntaxCases)
    func querySyntax(_ name: String, _ query: String, _ expected: [String]) async throws {
        try await syntax()
        let reply = try await server.send("GET", "/people?" + query)
        #expect(reply.status == 200, "\(name): \(reply.text)")
        #expect(reply.json.names == expected, "\(name)")
    }

    @Test(".find + $limit 0") func limitZero() async throws {
        try await syntax()
        #expect(try await server.send("GET", "/people?$limit=0").json == [])
    }

    @Test(".find + $select") func findSelect() async throws {
        try await syntax()
        #expect(try await server.send("GET", "/people?name=Alice&$select[]=name").json == [["name": "Alice", "id": 2]])
    }

    @Test(".find + paginate") func paginate() async throws {
        try await syntax("/people-paged")
        #expect(try await server.send("GET", "/people-paged?$sort[name]=-1").json == ["total": 3, "limit": 1, "skip": 0, "data": [["name": "Doug", "age": 32, "id": 1]]])
    }

    @Test(".find + paginate + query") func paginateQuery() async throws {
        try await syntax("/people-paged")
        #expect(try await server.send("GET", "/people-paged?$sort[name]=-1&name=Doug").json == ["total": 1, "limit": 1, "skip": 0, "data": [["name": "Doug", "age": 32, "id": 1]]])
    }

    @Test(".find + paginate + $limit + $skip") func paginateLimitSkip() async throws {
        try await syntax("/people-paged")
        let page = try await server.send("GET", "/people-paged?$skip=1&$limit=4&$sort[name]=-1").json
        #expect(page["total"] == 3 && page["limit"] == 2 && page["skip"] == 1 && page.names == ["Bob", "Alice"])
    }

    @Test(".find + paginate + $limit 0") func paginateLimitZero() async throws {
        try await syntax("/people-paged")
        #expect(try await server.send("GET", "/people-paged?$limit=0").json == ["total": 3, "limit": 0, "skip": 0, "data": []])
    }

    @Test("params.adapter + paginate, .find + paginate + params (cfg: a service paginated {default: 3})") func paginateParams() async throws {
        try await syntax("/people-paged-3")
        let page = try await server.send("GET", "/people-paged-3").json
        #expect(page["limit"] == 3 && page["skip"] == 0 && page.names.count == 3)
    }

    @Test("params.adapter + multi (cfg: multi create only)") func adapterMulti() async throws {
        let created = try await server.send("POST", "/people-paged-3", json: #"[{"name": "Ann"}, {"name": "Ben"}]"#)
        #expect(created.json.arrayValue?.count == 2)
        #expect(try await server.send("PATCH", "/people-paged-3", json: #"{"age": 1}"#).json["message"] == "Can not patch multiple entries")
    }
}

/// The same ‡ cases with a schema-less service: REST query values are text, and the memory
/// adapter compares strictly, so `age[$lt]=30` matches nothing — as a real app without
/// `coerce` answers.
@Suite(.timeLimit(.minutes(3)))
struct StrictQueryTests {
    @Test func numbersFromQueryStringsNeverMatch() async throws {
        let server = try FeathersTestServer(services: #"{"people": {}}"#)
        try await server.seed("/people", [#"{"name": "Bob", "age": 25}"#, #"{"name": "Doug", "age": 32}"#, #"{"name": "Alice", "age": 19}"#])
        #expect(try await server.send("GET", "/people?age[$lt]=30").json == [])
        #expect(try await server.send("GET", "/people?age=19").json == [])
        #expect(try await server.send("GET", "/people?age[$ne]=25").json.names == ["Bob", "Doug", "Alice"])
        #expect(try await server.send("GET", "/people?name=Alice").json.names == ["Alice"])
        // Unknown operators and filters name themselves, strict or not.
        #expect(try await server.send("GET", "/people?text[$like]=a").text
            == #"{"name":"BadRequest","message":"Invalid query parameter $like","code":400,"className":"bad-request","data":{"$like":"a"}}"#)
        #expect(try await server.send("GET", "/people?$foo=1").text == #"{"name":"BadRequest","message":"Invalid filter value $foo","code":400,"className":"bad-request"}"#)
    }
}

/// The query-syntax cases again on a v4 app (docs/feathers.md#conformance: v4 runs them but for `$and`, which is
/// not one of its filters), plus v4's refusal of `$and`.
@Suite(.timeLimit(.minutes(3)))
struct FeathersV4ConformanceTests {
    let server: FeathersTestServer

    init() throws {
        server = try FeathersTestServer(dialect: "v4", services: #"{"people": {\#(FeathersConformanceTests.schema)}}"#)
    }

    @Test(arguments: FeathersConformanceTests.syntaxCases.filter { !$0.1.contains("$and") })
    func querySyntax(_ name: String, _ query: String, _ expected: [String]) async throws {
        try await server.seed("/people", [#"{"name": "Bob", "age": 25}"#, #"{"name": "Doug", "age": 32}"#, #"{"name": "Alice", "age": 19}"#])
        let reply = try await server.send("GET", "/people?" + query)
        #expect(reply.status == 200, "\(name): \(reply.text)")
        #expect(reply.json.names == expected, "\(name)")
        #expect(reply.headers["allow"] == "GET,POST,PATCH,PUT,DELETE")
    }
}
