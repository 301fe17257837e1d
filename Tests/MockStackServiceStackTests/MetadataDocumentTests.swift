import MockStackCore
import Testing
@testable import MockStackServiceStack

/// `GET /types/metadata` (docs/servicestack.md#metadata).
@Suite struct MetadataDocumentTests {
    private func document(_ query: String = "") throws -> JSONValue {
        let response = TestHost.call(.get, "/types/metadata" + query, headers: ["Host": "127.0.0.1:5001"])
        #expect(response.status == 200)
        #expect(response.contentType == "application/json; charset=utf-8")
        return try JSONParser().parse(response.body).root
    }

    private func names(_ document: JSONValue) -> (types: [String], operations: [String]) {
        (document["types"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [],
         document["operations"]?.arrayValue?.compactMap { $0["request"]?["name"]?.stringValue } ?? [])
    }

    @Test func theWholeDocumentKeepsItsShapeAndPointsBack() throws {
        let full = try document()
        #expect(full.objectValue?.keys == ["config", "namespaces", "types", "operations"])
        #expect(full["config"]?["baseUrl"] == "http://127.0.0.1:5001")
        #expect(full["config"]?["addServiceStackTypes"] == true)
        #expect(full["config"]?["makePartial"] == true)
        #expect(full["config"]?["initializeCollections"] == false)
        #expect(full["config"]?["makeInternal"] == false)
        #expect(names(full).operations.count == TestHost.test.metadata.operations.count)
        let hello = try #require(full["operations"]?.arrayValue?.first { $0["request"]?["name"] == "Hello" })
        #expect(hello["routes"] == [["path": "/hello"], ["path": "/hello/{Name}"]])
        #expect(hello["request"]?["properties"] == [
            ["name": "Name", "type": "String", "namespace": "System", "isRequired": true, "attributes": [["name": "Required"]]],
            ["name": "Title", "type": "String", "namespace": "System"],
        ])
        #expect(hello["request"]?["implements"] == [["name": "IReturn`1", "namespace": "ServiceStack", "genericArgs": ["HelloResponse"]]])
    }

    @Test func optionalBooleansAppearOnlyWhenTrue() throws {
        func falseFlags(_ value: JSONValue) -> Int {
            switch value {
            case .bool(false): 1
            case .array(let elements): elements.map(falseFlags).reduce(0, +)
            case .object(let object): object.map { falseFlags($0.value) }.reduce(0, +)
            default: 0
            }
        }
        let full = try document()
        #expect(falseFlags(full["types"]!) == 0)
        #expect(falseFlags(full["operations"]!) == 0)
        #expect(TestHost.call(.get, "/types/metadata").text.contains(#""isValueType":true"#))
    }

    @Test func includeTypesSyntaxes() throws {
        #expect(names(try document("?IncludeTypes=Hello")) == ([], ["Hello"]))
        let withReferences = names(try document("?IncludeTypes=HelloAllTypes.*"))
        #expect(withReferences.operations.sorted() == ["AllCollectionTypes", "AllTypes", "HelloAllTypes"])
        #expect(withReferences.types.sorted() == ["KeyValuePair`2", "Poco", "SubType"])
        let referencing = names(try document("?IncludeTypes=*.SubType"))
        #expect(referencing.types == ["SubType", "AllTypesBase"])
        #expect(referencing.operations.sorted() == ["AllTypes", "EchoComplexTypes"])
        let namespace = names(try document("?IncludeTypes=ServiceStack/*"))
        let serviceStackTypes = ["CancelRequest", "CancelRequestResponse", "UpdateEventSubscriber", "UpdateEventSubscriberResponse", "GetApiKeys", "GetApiKeysResponse", "RegenerateApiKeys", "RegenerateApiKeysResponse", "UserApiKey", "ConvertSessionToToken", "ConvertSessionToTokenResponse", "NavItem", "GetNavItems", "GetNavItemsResponse", "IdResponse", "StringResponse", "StringsResponse", "IAuthTokens", "AuthUserSession", "CreateAuditBase`2", "UpdateAuditBase`2", "PatchAuditBase`2", "SoftDeleteAuditBase`2", "ResponseStatus", "ResponseError", "ErrorResponse", "QueryResponse`1", "QueryBase", "QueryDb`1", "QueryDb`2", "AuditBase", "EmptyResponse"]
        #expect(namespace.types == serviceStackTypes)
        #expect(namespace.operations.sorted() == ["AssignRoles", "Authenticate", "GetAccessToken", "Register", "UnAssignRoles"])
        let excluded = names(try document("?IncludeTypes=ServiceStack/*&ExcludeTypes=ResponseError,ErrorResponse"))
        #expect(excluded.types == serviceStackTypes.filter { $0 != "ResponseError" && $0 != "ErrorResponse" })
        #expect(names(try document("?ExcludeTypes=services")).operations.isEmpty)
        #expect(names(try document("?excludetypes=types")).types.isEmpty)
    }

    @Test func tagsSelectOperations() throws {
        let ai = try TestHost.load("ai")
        let response = TestHost.call(.get, "/types/metadata?IncludeTypes={AI}", app: ai)
        let json = try JSONParser().parse(response.body).root
        #expect(names(json).operations == [
            "TextToImage", "ImageToImage", "ImageUpscale", "ImageWithMask", "ImageToText", "QueueTextToImage", "QueueImageUpscale",
            "QueueImageToImage", "QueueImageWithMask", "QueueImageToText", "QueueTextToSpeech", "QueueSpeechToText", "TextToSpeech",
            "SpeechToText",
        ])
        #expect(names(json).types.contains("TextOutput"))
        #expect(!names(json).types.contains("ErrorResponse"))
    }
}

/// Pruning and ordering on a document written for the purpose, with the members the shipped
/// fixtures happen not to contain.
@Suite struct MetadataDocumentPruningTests {
    @Test func falseAndNullMembersGoAtEveryDepthButConfigKeepsItsBooleans() throws {
        let json = try JSONParser().parse(#"""
        {"config":{"baseUrl":"x","makePartial":false},"namespaces":["Demo"],
         "types":[{"name":"Widget","namespace":"Demo","implements":[],"isNested":false,"description":null,
           "properties":[{"name":"Id","type":"Int32","isValueType":true,"isRequired":false,"dataMember":{"name":"id","order":2,"isRequired":false}},
                         {"name":"Name","type":"String","dataMember":{"order":1}}]}],
         "operations":[{"request":{"name":"GetWidget","namespace":"Demo","implements":[],"isAbstract":false,"properties":[]},
           "response":{"name":"Widget","namespace":"Demo","implements":[],"isInterface":false},"actions":["GET"],"returnsVoid":false,"requiresAuth":null}]}
        """#).root
        let metadata = try MetadataTypes(json: json)
        let document = MetadataDocument(metadata: metadata)
        let text = String(decoding: document.render(query: [], baseURL: "http://h/app"), as: UTF8.self)
        #expect(text.contains(#""config":{"baseUrl":"http://h/app","makePartial":false}"#))
        #expect(text.contains(#"{"name":"Widget","namespace":"Demo","implements":[],"properties":[{"name":"Id","type":"Int32","isValueType":true,"dataMember":{"name":"id","order":2}},{"name":"Name","type":"String","dataMember":{"order":1}}]}"#))
        #expect(text.contains(#"{"request":{"name":"GetWidget","namespace":"Demo","implements":[],"properties":[]},"response":{"name":"Widget","namespace":"Demo","implements":[]},"actions":["GET"]}"#))
        #expect(text.split(separator: "false").count == 2)

        // `[DataMember(Order)]` decides the written order: Name (1) before Id (2).
        let catalog = TypeCatalog(metadata: metadata)
        #expect(catalog.object(named: "Widget")?.properties.map(\.name) == ["Name", "Id"])
    }
}
