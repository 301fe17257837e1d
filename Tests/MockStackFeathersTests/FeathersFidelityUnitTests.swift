import MockStackCore
import Testing
@testable import MockStackFeathers

/// Issue 26's Feathers details without sockets: sift's errors for a `$or`/`$and` it cannot
/// read, Node's method list and `cors()`, on app values.
@Suite struct FeathersFidelityUnitTests {
    static func app(dialect: FeathersDialect = .v5) -> FeathersApp {
        var options = ServiceOptions(path: "people")
        options.dialect = dialect
        return FeathersApp(name: "f", mount: "/f", dialect: dialect, services: [MemoryService(options: options, seed: [["id": 0, "name": "Ann"]])],
                           authentication: nil)
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

}
