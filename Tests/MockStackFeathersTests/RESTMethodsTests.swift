import MockStackCore
import Testing
@testable import MockStackFeathers

/// The REST transport's one verb → service-method mapping, and what the routes listing, the
/// journal's operation names and v4's `Allow` read from it.
@Suite struct RESTMethodsTests {
    static func app(dialect: FeathersDialect, methods: Set<ServiceMethod> = Set(ServiceMethod.allCases),
                    multi: Set<ServiceMethod> = []) -> FeathersApp {
        var options = ServiceOptions(path: "people")
        options.dialect = dialect
        options.methods = methods
        options.multi = multi
        return FeathersApp(name: "f", mount: "/f", dialect: dialect,
                           services: [MemoryService(options: options, seed: [["id": 0, "name": "Ann"]])],
                           authentication: nil, cors: false)
    }

    @Test func eachVerbCallsOneMethodOnACollectionAndOnARecord() {
        let verbs: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .head, .options, .trace]
        let onCollection = verbs.map { ServiceMethod(restVerb: $0, hasId: false) }
        #expect(onCollection == [.find, .create, .update, .patch, .remove, nil, nil, nil])
        let onRecord = verbs.map { ServiceMethod(restVerb: $0, hasId: true) }
        #expect(onRecord == [.get, .create, .update, .patch, .remove, nil, nil, nil])
    }

    @Test func theListingOffersWhatTheServiceExposes() {
        let all = Self.app(dialect: .v5, multi: [.patch]).routes
        #expect(all == [
            RouteDescription(name: "people", methods: ["GET", "POST", "PATCH"], path: "/people"),
            RouteDescription(name: "people", methods: ["GET", "PUT", "PATCH", "DELETE"], path: "/people/:id"),
        ])
        let some = Self.app(dialect: .v5, methods: [.get, .create, .remove], multi: [.remove]).routes
        #expect(some.map(\.methods) == [["POST", "DELETE"], ["GET", "DELETE"]])
    }

    @Test func operationNamesFollowTheMapping() {
        let app = Self.app(dialect: .v5)
        #expect(app.operation(for: HTTPRequest(method: .get, target: "/people")) == "people.find")
        #expect(app.operation(for: HTTPRequest(method: .get, target: "/people/0")) == "people.get")
        #expect(app.operation(for: HTTPRequest(method: .put, target: "/people/0")) == "people.update")
        #expect(app.operation(for: HTTPRequest(method: .trace, target: "/people")) == "people.TRACE")
        let put = HTTPRequest(method: .put, target: "/people/0", headers: ["Content-Type": "application/json"],
                              body: Array(#"{"name":"Bo"}"#.utf8))
        #expect(app.respond(to: put).operation == "people.update")
    }

    @Test func v4sAllowListsTheRoutedVerbsInExpressOrder() {
        let all = Self.app(dialect: .v4).respond(to: HTTPRequest(method: .get, target: "/people"))
        #expect(all.headers["Allow"] == "GET,POST,PATCH,PUT,DELETE")
        let some = Self.app(dialect: .v4, methods: [.get, .update])
            .respond(to: HTTPRequest(method: .get, target: "/people/0"))
        #expect(some.status == 200)
        #expect(some.headers["Allow"] == "GET,PUT")
        let options = Self.app(dialect: .v4, methods: [.find, .remove])
            .respond(to: HTTPRequest(method: .options, target: "/people"))
        #expect(String(decoding: options.body, as: UTF8.self) == "GET,HEAD,DELETE")
    }
}
