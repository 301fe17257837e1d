import MockStackCore
@testable import MockStackServiceStack
import Testing

/// Mistakes in a user's ServiceStack fixtures that would load but answer silently wrong are
/// refused at load (`mockstack validate`, `serve`), each as `file:line:column: /pointer: message`.
@Suite struct FixtureCheckTests {
    /// A small app: `Hello` (route `/hello/{Name}`) answering `HelloResponse` from a template.
    static func problems(
        helloProperties: String = #"{ "name": "Name", "type": "String" }"#,
        responseProperties: String = #"{ "name": "Result", "type": "String" }"#,
        returnType: String = "HelloResponse",
        route: String = "/hello/{Name}",
        response: String = #"{ "result": "Hello, {Name}!" }"#,
        extraOperation: String = "",
        extraTypes: String = "",
        helloBase: String? = nil,
        helloManifest: String = ""
    ) -> [String] {
        let inherits = helloBase.map { #""inherits": { "name": "\#($0)" }, "# } ?? ""
        let metadata = """
            {
              "config": {}, "namespaces": [],
              "types": [
                { "name": "HelloResponse", "properties": [ \(responseProperties) ] }\(extraTypes)
              ],
              "operations": [
                {
                  "request": { "name": "Hello", \(inherits)"properties": [ \(helloProperties) ] },
                  "returnType": { "name": "\(returnType)" },
                  "routes": [ { "path": "\(route)" } ]
                }\(extraOperation)
              ]
            }
            """
        let manifest = """
            {
              "kind": "servicestack",
              "metadata": "metadata.json",
              "operations": { "Hello": { "behaviour": "template", "response": \(response)\(helloManifest) } }
            }
            """
        do {
            _ = try AppLoader(kinds: [ServiceStackAppKind()]).load(from: InMemoryFixtureSource(files: ["demo/app.json": manifest, "demo/metadata.json": metadata]))
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aCorrectAppHasNoProblems() {
        #expect(Self.problems() == [])
    }

    @Test func anOperationsResponseTypeMustBeDeclared() {
        #expect(Self.problems(returnType: "HelloRespons") == [
            "Fixtures/demo/metadata.json:9:21: /operations/0/returnType: Hello returns 'HelloRespons', which no type in 'types' declares",
        ])
        let generic = #", { "request": { "name": "Bye" }, "returnType": { "name": "List`1", "genericArgs": ["Fooo"] } }"#
        #expect(Self.problems(extraOperation: generic) == [
            "Fixtures/demo/metadata.json:11:54: /operations/1/returnType: Bye returns 'Fooo' (in List<Fooo>), which no type in 'types' declares",
        ])
    }

    /// Without a `returnType`, the script generators read the request's `IReturn<T>`: a `T`
    /// nothing declares would name a class the generated file never writes.
    @Test func aRequestsIReturnMustNameADeclaredType() {
        let marker = #", { "request": { "name": "Bye", "implements": [{ "name": "IReturn`1", "genericArgs": ["ByeResponse"] }] } }"#
        #expect(Self.problems(extraOperation: marker) == [
            "Fixtures/demo/metadata.json:11:92: /operations/1/request/implements/0/genericArgs/0: Bye returns 'ByeResponse' (in IReturn<ByeResponse>), which no type in 'types' declares",
        ])
        let declared = #", { "request": { "name": "Bye", "implements": [{ "name": "IReturn`1", "genericArgs": ["List<HelloResponse>"] }] } }"#
        #expect(Self.problems(extraOperation: declared) == [])
    }

    @Test func aRequestsBaseTypeMustBeDeclared() {
        let derived = #", { "request": { "name": "Bye", "inherits": { "name": "QueryDb`1", "genericArgs": ["Hello"] } } }"#
        #expect(Self.problems(extraOperation: derived) == [
            "Fixtures/demo/metadata.json:11:50: /operations/1/request/inherits: Bye inherits 'QueryDb', which no type in 'types' declares",
        ])
    }

    @Test func aPropertysTypeMustBeKnown() {
        #expect(Self.problems(responseProperties: #"{ "name": "Result", "type": "Strin" }"#) == [
            "Fixtures/demo/metadata.json:4:76: /types/0/properties/0/type: HelloResponse.Result is of type 'Strin', "
                + "which no type in 'types' declares and is not a .NET type mockstack knows",
        ])
        // .NET's own types, collections of declared ones and a generic type's parameters are known.
        let known = #"{ "name": "Names", "type": "List`1", "genericArgs": ["String"] }, { "name": "Map", "type": "Dictionary<String,HelloResponse>" }, "#
            + #"{ "name": "When", "type": "Nullable`1", "genericArgs": ["DateTime"] }, { "name": "Bytes", "type": "Byte[]" }"#
        #expect(Self.problems(helloProperties: #"{ "name": "Name", "type": "String" }, "# + known) == [])
    }

    @Test func aTemplatePlaceholderMustBeARequestProperty() {
        #expect(Self.problems(response: #"{ "result": "Hello, {Nmae}!" }"#) == [
            "Fixtures/demo/app.json:4:79: /operations/Hello/response/result: '{Nmae}' is not a property of Hello (Name)",
        ])
        #expect(Self.problems(response: #"{ "result": "{@verb} {@nope}" }"#) == [
            "Fixtures/demo/app.json:4:79: /operations/Hello/response/result: "
                + "'{@nope}' is not a special name (@displayName, @operation, @pathInfo, @sessionId, @userId, @userName, @verb)",
        ])
        // Placeholders compare ignoring case, as binding does; a fallback is not a name.
        #expect(Self.problems(response: #"{ "result": "Hello, {name|you}!" }"#) == [])
    }

    @Test func aTemplateKeyMustBeAResponseProperty() {
        #expect(Self.problems(response: #"{ "result": "Hello", "reslt": "x" }"#) == [
            "Fixtures/demo/app.json:4:97: /operations/Hello/response/reslt: 'reslt' is not a property of HelloResponse (Result)",
        ])
        #expect(Self.problems(response: #"{ "Result": "Hello" }"#) == [])
    }

    @Test func aRouteVariableMustBeARequestProperty() {
        #expect(Self.problems(route: "/hello/{Nam}") == [
            "Fixtures/demo/metadata.json:10:29: /operations/0/routes/0/path: route '/hello/{Nam}': '{Nam}' is not a property of Hello (Name); did you mean 'Name'?",
        ])
        // A document read before is not read again, but its problems still refuse the app.
        #expect(Self.problems(route: "/hello/{Nam}").count == 1)
        #expect(Self.problems(route: "/hello/{name}/{Name*}") == [])
        #expect(Self.problems(route: "/hello/{**Name}") == [])
        #expect(Self.problems(route: "/hello/{Name}/{ignore}") == [])
        // Far from every property: refused too, saying how to keep a route the host publishes.
        #expect(Self.problems(route: "/hello/{Name}/{Region}") == [
            "Fixtures/demo/metadata.json:10:29: /operations/0/routes/0/path: route '/hello/{Name}/{Region}': '{Region}' is not a property of Hello (Name); a route the host publishes as it is goes in the manifest's operations.Hello.unboundRouteVariables",
        ])
    }

    /// A route the real host publishes with a variable its request lacks loads once the
    /// manifest names the variable; a name there that is no such variable is a mistake too.
    @Test func anUnboundRouteVariableTheManifestNamesLoads() {
        #expect(Self.problems(route: "/hello/{Name}/{Region}", helloManifest: #", "unboundRouteVariables": ["region"]"#) == [])
        #expect(Self.problems(route: "/hello/{Name}/{Region}/{Zone}", helloManifest: #", "unboundRouteVariables": ["Region"]"#) == [
            "Fixtures/demo/metadata.json:10:29: /operations/0/routes/0/path: route '/hello/{Name}/{Region}/{Zone}': '{Zone}' is not a property of Hello (Name); a route the host publishes as it is goes in the manifest's operations.Hello.unboundRouteVariables",
        ])
        #expect(Self.problems(helloManifest: #", "unboundRouteVariables": ["Name", 3]"#) == [
            "Fixtures/demo/app.json:4:125: /operations/Hello/unboundRouteVariables/0: 'Name' is no route variable of Hello that its request lacks",
            "Fixtures/demo/app.json:4:133: /operations/Hello/unboundRouteVariables/1: expected a route variable's name, found number",
        ])
    }

    /// The check reads a request's properties from the declarations (no type is resolved for
    /// it), as binding finds them: inherited ones first, by C# or `[DataMember]` name, any case.
    @Test func aRouteVariableMayNameAnInheritedOrDataMemberProperty() {
        let base = #", { "name": "HelloBase", "properties": [ { "name": "Id", "type": "Int32" }, "#
            + #"{ "name": "Tag", "type": "String", "dataMember": { "name": "label" } } ] }"#
        #expect(Self.problems(route: "/hello/{id}/{LABEL}/{Name}", extraTypes: base, helloBase: "HelloBase") == [])
        #expect(Self.problems(route: "/hello/{Nam}", extraTypes: base, helloBase: "HelloBase") == [
            "Fixtures/demo/metadata.json:10:29: /operations/0/routes/0/path: route '/hello/{Nam}': '{Nam}' is not a property of Hello (Id, Tag, Name); did you mean 'Name'?",
        ])
        // A redeclared property keeps its inherited place.
        #expect(Self.problems(helloProperties: #"{ "name": "Name", "type": "String" }, { "name": "Id", "type": "Int64" }"#,
                              route: "/hello/{Nam}", extraTypes: base, helloBase: "HelloBase") == [
            "Fixtures/demo/metadata.json:10:29: /operations/0/routes/0/path: route '/hello/{Nam}': '{Nam}' is not a property of Hello (Id, Tag, Name); did you mean 'Name'?",
        ])
    }
}
