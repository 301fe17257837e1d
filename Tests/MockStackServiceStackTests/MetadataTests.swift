import MockStackCore
import Testing
@testable import MockStackServiceStack

@Suite struct TypeReferenceTests {
    @Test(arguments: [
        ("String", [], "String"),
        ("Int32[]", [], "Int32[]"),
        ("Nullable`1", ["Int32"], "Nullable<Int32>"),
        ("List`1", ["Poco"], "List<Poco>"),
        ("Dictionary`2", ["String", "List<Poco>"], "Dictionary<String,List<Poco>>"),
        ("List`1", ["Dictionary<String,Poco>"], "List<Dictionary<String,Poco>>"),
        ("QueryResponse`1", ["Technology"], "QueryResponse<Technology>"),
        ("Nullable`1[]", ["Byte"], "Nullable<Byte>"),  // arguments given separately win over the text
    ] as [(String, [String], String)])
    func parsesMetadataSpellings(type: String, genericArgs: [String], expected: String) {
        #expect(TypeReference(type: type, genericArgs: genericArgs).description == expected)
    }

    @Test func parsesNestedInlineGenerics() {
        let parsed = TypeReference(parsing: "Dictionary<String, List<Dictionary<String,Poco>>>[]")
        #expect(parsed == .array(.named("Dictionary", [.named("String", []), .named("List", [.named("Dictionary", [.named("String", []), .named("Poco", [])])])])))
        #expect(parsed.name == "Dictionary")
    }
}

@Suite struct MetadataTypesTests {
    static let document: JSONValue = [
        "config": ["baseUrl": "https://test.servicestack.net"],
        "namespaces": ["System", "Test.ServiceModel"],
        "types": [],
        "operations": [
            [
                "request": [
                    "name": "Hello", "namespace": "Test.ServiceModel",
                    "implements": [["name": "IReturn`1", "namespace": "ServiceStack", "genericArgs": ["HelloResponse"]]],
                    "properties": [
                        ["name": "Name", "type": "String", "namespace": "System", "isRequired": true],
                        ["name": "Title", "type": "String", "namespace": "System"],
                    ],
                ],
                "actions": ["ANY"],
                "returnType": ["name": "HelloResponse", "namespace": "Test.ServiceModel"],
                "routes": [["path": "/hello"], ["path": "/hello/{Name}"]],
            ],
            [
                "request": ["name": "SendRestGet", "namespace": "Test.ServiceModel", "implements": [["name": "IGet", "namespace": "ServiceStack"]]],
                "actions": ["GET"], "method": "GET",
                "routes": [["path": "/sendrestget/{Id}", "verbs": "GET"]],
            ],
        ],
    ]

    @Test func readsOperationsInOrderWithTheirRoutes() throws {
        let metadata = try MetadataTypes(json: Self.document)
        #expect(metadata.namespaces == ["System", "Test.ServiceModel"])
        #expect(metadata.operations.map(\.name) == ["Hello", "SendRestGet"])
        let hello = metadata.operations[0]
        #expect(hello.request.properties.map(\.name) == ["Name", "Title"])
        #expect(hello.request.properties[0].isRequired)
        #expect(!hello.request.properties[1].isRequired)
        #expect(hello.routes.map(\.path) == ["/hello", "/hello/{Name}"])
        #expect(hello.returnType?.name == "HelloResponse")
        #expect(hello.request.implements("IReturn"))
        #expect(metadata.operations[1].routes[0].verbs == ["GET"])
        #expect(metadata.operations[1].request.implements("IGet"))
        #expect(metadata.config["baseUrl"] == "https://test.servicestack.net")
    }

    @Test(arguments: [
        (["operations": [["actions": ["GET"]]]] as JSONValue, "/operations/0/request: an operation needs a 'request' type"),
        (["operations": [["request": ["namespace": "X"]]]] as JSONValue, "/operations/0/request/name: 'name' is required"),
        (["types": [["name": "A", "isEnum": "yes"]]] as JSONValue, "/types/0/isEnum: expected true or false, found string"),
        (["operations": [["request": ["name": "A"], "routes": [["path": "hello"]]]]] as JSONValue, "/operations/0/routes/0/path: a route path starts with '/', got 'hello'"),
        (["namespaces": "System"] as JSONValue, "/namespaces: expected an array, found string"),
    ])
    func reportsWhereADocumentIsWrong(document: JSONValue, message: String) {
        let error = #expect(throws: MetadataError.self) { try MetadataTypes(json: document) }
        #expect(error?.description == message)
    }
}

@Suite struct OperationRouterTests {
    static let operations: [(name: String, routes: [MetadataRoute])] = [
        ("Hello", [MetadataRoute(path: "/hello"), MetadataRoute(path: "/hello/{Name}")]),
        ("ThrowType", [MetadataRoute(path: "/throw/{Type}")]),
        ("SendRestGet", [MetadataRoute(path: "/sendrestget/{Id}", verbs: ["GET"])]),
        ("GetTechnology", [MetadataRoute(path: "/technology/{Slug}")]),
        ("TechnologySearch", [MetadataRoute(path: "/technology/search")]),
        ("GetFile", [MetadataRoute(path: "/files/{Path*}")]),
    ]
    let router = OperationRouter(operations: Self.operations)

    private func match(_ operation: String, _ variables: [(String, String)] = [], batch: Bool = false, oneWay: Bool = false) -> OperationRouter.Outcome {
        let index = Self.operations.firstIndex { $0.name == operation }!
        return .operation(.init(operation: operation, index: index, pathVariables: variables.map { .init(name: $0.0, value: $0.1) }, isBatch: batch, isOneWay: oneWay))
    }

    @Test func predefinedRoutes() {
        #expect(router.route(path: "/api/Hello", verb: "GET") == match("Hello"))
        #expect(router.route(path: "/api/hello.json", verb: "POST") == match("Hello"))
        #expect(router.route(path: "/api/Hello[]", verb: "POST") == match("Hello", batch: true))
        #expect(router.route(path: "/api/Hello%5B%5D", verb: "POST") == match("Hello", batch: true))
        #expect(router.route(path: "/json/reply/Hello", verb: "GET") == match("Hello"))
        #expect(router.route(path: "/json/oneway/Hello", verb: "POST") == match("Hello", oneWay: true))
    }

    @Test func unknownOperationsOnPredefinedRoutes() {
        #expect(router.route(path: "/api/NonExistingService", verb: "GET") == .unknownOperation("NonExistingService"))
        #expect(router.route(path: "/json/reply/Overview", verb: "GET") == .unknownOperation("Overview"))
    }

    @Test func customRoutesBindVariablesAndPreferLiterals() {
        #expect(router.route(path: "/hello/World", verb: "GET") == match("Hello", [("Name", "World")]))
        #expect(router.route(path: "/hello/%C3%BC%20x", verb: "GET") == match("Hello", [("Name", "ü x")]))
        #expect(router.route(path: "/HELLO", verb: "POST") == match("Hello"))
        #expect(router.route(path: "/technology/search", verb: "GET") == match("TechnologySearch"))
        #expect(router.route(path: "/technology/servicestack", verb: "GET") == match("GetTechnology", [("Slug", "servicestack")]))
        #expect(router.route(path: "/files/a/b/c.txt", verb: "GET") == match("GetFile", [("Path", "a/b/c.txt")]))
    }

    @Test func verbLimitedRoutesAndStrangers() {
        #expect(router.route(path: "/sendrestget/1", verb: "GET") == match("SendRestGet", [("Id", "1")]))
        #expect(router.route(path: "/sendrestget/1", verb: "POST") == .notFound)
        #expect(router.route(path: "/hello/a/b", verb: "GET") == .notFound)
        #expect(router.route(path: "/", verb: "GET") == .notFound)
        #expect(router.route(path: "/xml/reply/Hello", verb: "GET") == .notFound)
    }
}
