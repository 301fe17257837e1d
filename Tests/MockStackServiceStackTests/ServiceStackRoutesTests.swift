import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The one declaration of a ServiceStack app's routes (docs/servicestack.md#routing), and the
/// method override read once for both `operation(for:)` and the answer.
@Suite struct ServiceStackRoutesTests {
    static let routes = ServiceStackRoutes(operations: TestHost.test.metadata.operations)

    @Test(arguments: [
        ("/types", "TypeLinks"), ("/TYPES", "TypeLinks"), ("/types/metadata", "TypesMetadata"),
        ("/types/swift", "TypesSwift"), ("/types/Swift4", "TypesSwift4"), ("/types/python", "TypesPython"),
        ("/types/typescript", "TypesTypeScript"),
    ])
    func nativeTypesServicesAnswerAnyVerbInAnyCase(path: String, name: String) {
        for verb in ["GET", "POST", "DELETE"] {
            guard case .nativeTypes(let route) = Self.routes.destination(path: path, verb: verb) else {
                Issue.record("\(verb) \(path) reached no native-types service")
                continue
            }
            #expect(route.name == name)
        }
    }

    @Test func otherPathsGoToTheOperationRouter() {
        #expect(Self.routes.destination(path: "/types/dtos", verb: "GET") == .routed(.notFound))
        #expect(Self.routes.destination(path: "/typesx", verb: "GET") == .routed(.notFound))
        #expect(Self.routes.destination(path: "/api/Hello", verb: "GET").operation == "Hello")
        #expect(Self.routes.destination(path: "/api/Nope", verb: "GET") == .routed(.unknownOperation("Nope")))
        // `/sendrestget/{Id}` is declared for GET only.
        #expect(Self.routes.destination(path: "/sendrestget/7", verb: "GET").operation == "SendRestGet")
        #expect(Self.routes.destination(path: "/sendrestget/7", verb: "POST") == .routed(.notFound))
    }

    @Test func listingNamesEachOperationRouteThenTheNativeTypesServices() {
        let listing = Self.routes.listing
        #expect(listing.contains(RouteDescription(name: "SendRestGet", methods: ["GET"], path: "/sendrestget/{Id}")))
        #expect(listing.contains(RouteDescription(name: "Hello", methods: ["ANY"], path: "/api/Hello")))
        let nativeTypes = [
            "TypeLinks", "TypesMetadata", "TypesSwift", "TypesSwift4", "TypesPython", "TypesTypeScript",
            "TypesTypeScriptDefinition", "TypesMjs", "TypesCommonJs",
            "TypesJava", "TypesKotlin", "TypesDart", "TypesCSharp", "TypesFSharp", "TypesVbNet", "TypesPhp",
        ]
        #expect(listing.suffix(nativeTypes.count).map(\.name) == nativeTypes)
        #expect(listing.suffix(nativeTypes.count).allSatisfy { $0.methods == ["ANY"] })
        // The test host has Server Events: the feature's paths and services come last.
        #expect(TestHost.test.routes == listing + ServerEventsRoute.listing.map {
            RouteDescription(name: $0.name, methods: $0.methods, path: $0.path)
        })
    }

    @Test func everyListedPathReachesTheOperationItNames() {
        // The predefined and native-types paths: custom routes may share a path between verbs.
        for route in Self.routes.listing where route.path.hasPrefix("/api/") || route.path.hasPrefix("/types") {
            let verb = route.methods.first { $0 != "ANY" } ?? "GET"
            #expect(Self.routes.destination(path: route.path, verb: verb).operation == route.name, "\(route.path)")
        }
    }

    @Test(arguments: [
        ("/sendrestget/7?X-Http-Method-Override=GET", [UInt8](), [:]),
        ("/sendrestget/7", Array("X-Http-Method-Override=get".utf8),
         ["Content-Type": "application/x-www-form-urlencoded"]),
        ("/sendrestget/7", [], ["X-Http-Method-Override": "GET"]),
    ] as [(String, [UInt8], HTTPHeaders)])
    func operationForAndTheAnswerAgreeOnAnOverriddenVerb(target: String, body: [UInt8], headers: HTTPHeaders) {
        let request = HTTPRequest(method: .post, target: target, headers: headers, body: body)
        let response = TestHost.test.respond(to: request)
        #expect(response.status == 200)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body == #"{"id":7,"pathInfo":"/sendrestget/7","requestMethod":"GET"}"#)
        #expect(response.operation == "SendRestGet")
        #expect(TestHost.test.operation(for: request) == "SendRestGet")
    }

    @Test func theOverrideComesFromTheHeaderFirstThenTheQueryThenTheForm() throws {
        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        func verb(_ target: String, headers: HTTPHeaders = [:], body: String = "") throws -> String {
            let request = HTTPRequest(method: .post, target: target, headers: headers, body: Array(body.utf8))
            return RequestVerb.of(request, input: try RequestInput(request))
        }
        #expect(try verb("/x") == "POST")
        #expect(try verb("/x?x-http-method-override=patch") == "PATCH")
        #expect(try verb("/x?X-Http-Method-Override=PUT", headers: ["X-Http-Method-Override": "delete"]) == "DELETE")
        var both = form
        both.add("X-Http-Method-Override", "GET")
        let formOverride = "X-Http-Method-Override=DELETE"
        #expect(try verb("/x?X-Http-Method-Override=PUT", headers: form, body: formOverride) == "PUT")
        #expect(try verb("/x", headers: form, body: "X-Http-Method-Override=DELETE") == "DELETE")
        #expect(try verb("/x", headers: both, body: "X-Http-Method-Override=DELETE") == "GET")
    }
}
