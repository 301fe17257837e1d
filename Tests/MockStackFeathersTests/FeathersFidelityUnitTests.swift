import MockStackCore
import Testing
@testable import MockStackFeathers

/// What real clients found a Feathers server does, without sockets: sift's errors for a `$or`/`$and` it cannot
/// read, Node's method list and `cors()`, on app values.
@Suite struct FeathersFidelityUnitTests {
    static func app(dialect: FeathersDialect = .v5, cors: Bool = true) -> FeathersApp {
        var options = ServiceOptions(path: "people")
        options.dialect = dialect
        return FeathersApp(name: "f", mount: "/f", dialect: dialect, services: [MemoryService(options: options, seed: [["id": 0, "name": "Ann"]])],
                           authentication: nil, cors: cors)
    }

    private func failure(_ query: JSONObject, _ dialect: FeathersDialect = .v5) throws -> String? {
        try FeathersQuery(query, dialect: dialect).matcherFailure?.message
    }

    @Test func siftsErrorsForGroupsThatAreNotLists() throws {
        #expect(try failure(["$or": "x"]) == "this.params.map is not a function")
        #expect(try failure(["$or": ["a": 1]]) == "this.params.map is not a function")
        #expect(try failure(["$or": 1]) == "this.params.map is not a function")
        #expect(try failure(["$or": ""]) == "$and/$or/$nor must be a nonempty array")
        #expect(try failure(["$or": []]) == "$and/$or/$nor must be a nonempty array")
        #expect(try failure(["$or": .null]) == "Cannot read properties of null (reading 'length')")
        #expect(try failure(["$and": "x"]) == "params.map is not a function")
        #expect(try failure(["$and": ""]) == "params.map is not a function")
        #expect(try failure(["$and": []]) == "$and/$or/$nor must be a nonempty array")
        #expect(try failure(["$and": .null]) == "Cannot read properties of null (reading 'map')")
        // In the query's order; a list is fine; v4 reads its operators its own way.
        #expect(try failure(["$and": 1, "$or": 1]) == "params.map is not a function")
        #expect(try failure(["$or": [["a": 1]], "name": "x"]) == nil)
        #expect(try failure(["$or": "x"], .v4) == nil)
        let error = try #require(try FeathersQuery(["$or": "x"], dialect: .v5).matcherFailure)
        #expect(error.response(.v5).body == Array(#"{"name":"GeneralError","message":"this.params.map is not a function","code":500,"className":"general-error"}"#.utf8))
    }

    @Test func findFailsEvenOnAnEmptyStore() throws {
        let empty = MemoryService(options: ServiceOptions(path: "x"), seed: [])
        #expect(throws: FeathersError(.generalError, "this.params.map is not a function", converted: true)) {
            try empty.find(FeathersQuery(["$or": "x"], dialect: .v5))
        }
    }

    @Test func nodesParserListDecidesBeforeTheApp() {
        let app = Self.app()
        var request = HTTPRequest(method: .get, target: "/people")
        for refused in ["PUSH", "FOO", "get", "DESCRIBE", "PRI", "UNKNOWN"] {
            request.methodName = refused
            #expect(app.respond(to: request) == HTTPResponse(status: 400, headers: ["Connection": "close"]), "\(refused)")
        }
        for accepted in ["PURGE", "QUERY", "M-SEARCH", "SOURCE"] {
            request.methodName = accepted
            let response = app.respond(to: request)
            #expect(response.status == 405 && response.body == Array(
                #"{"name":"MethodNotAllowed","message":"Method \#(accepted) not allowed","code":405,"className":"method-not-allowed"}"#.utf8))
            #expect(response.operation == "people.\(accepted)")
        }
    }

    @Test func corsIsFirstOnEveryAnswerAndAnswersEveryOptions() {
        let app = Self.app()
        let found = app.respond(to: HTTPRequest(method: .get, target: "/people"))
        #expect(found.headers.fields.first == HTTPHeaders.Field(name: "Access-Control-Allow-Origin", value: "*"))
        #expect(app.respond(to: HTTPRequest(method: .get, target: "/nope")).headers["Access-Control-Allow-Origin"] == "*")
        let preflight = app.respond(to: HTTPRequest(method: .options, target: "/anything", headers: ["Access-Control-Request-Headers": "x-a"]))
        #expect(preflight == HTTPResponse(status: 204, headers: ["Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET,HEAD,PUT,PATCH,POST,DELETE",
                                                                 "Vary": "Access-Control-Request-Headers", "Access-Control-Allow-Headers": "x-a"]))
        let plain = Self.app(cors: false)
        #expect(plain.respond(to: HTTPRequest(method: .get, target: "/people")).headers["Access-Control-Allow-Origin"] == nil)
        #expect(plain.respond(to: HTTPRequest(method: .options, target: "/people")).status == 405)
        // The session copy keeps the setting.
        #expect((plain.makeSession() as? FeathersApp)?.cors == false)
    }
}
