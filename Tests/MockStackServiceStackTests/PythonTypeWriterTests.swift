import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Single classes written as `/types/python` writes them, for the rules the Python generator has
/// and the Swift and TypeScript generators lack (shapes as in servicestack-python's tests/dtos.py).
@Suite struct PythonTypeWriterTests {
    static let metadata = try! MetadataTypes(json: JSONParser().parse(#"""
    {"types":[
      {"name":"CreateAuditBase`2","namespace":"Demo","genericArgs":["Table","TResponse"],"isAbstract":true,
       "implements":[{"name":"ICreateDb`1","namespace":"ServiceStack","genericArgs":["Table"]},{"name":"IReturn`1","namespace":"ServiceStack","genericArgs":["TResponse"]}],
       "properties":[]},
      {"name":"NotifyBase","namespace":"Demo","isAbstract":true,"implements":[{"name":"IReturnVoid","namespace":"ServiceStack"}],
       "properties":[{"name":"Note","type":"String","namespace":"System"}]},
      {"name":"PlainBase`1","namespace":"Demo","genericArgs":["T"],"implements":[{"name":"IReturn`1","namespace":"ServiceStack","genericArgs":["T"]}],"properties":[]}
    ],"operations":[
      {"request":{"name":"MessageQuery","namespace":"Demo","inherits":{"name":"QueryDb`1","namespace":"ServiceStack","genericArgs":["MessageQuery"]},
        "implements":[],"properties":[{"name":"Id","type":"Int32","namespace":"System","isValueType":true}]},
       "returnType":{"name":"QueryResponse`1","namespace":"ServiceStack","genericArgs":["MessageQuery"]}}
    ]}
    """#).root)

    static func python(_ includeTypes: String) -> String {
        PythonGenerator(metadata: metadata).render(query: [("IncludeTypes", includeTypes), ("WithoutOptions", "true")],
                                                   date: DateTimeValue(parsing: "2026-01-01T00:00:00Z")!, baseURL: "http://localhost")
    }

    /// An abstract base implementing `IReturn<T>` itself names it and returns its `T` from
    /// `response_type()` (servicestack-python's tests/dtos.py, `CreateAuditBase`).
    @Test func abstractGenericBaseKeepsItsReturnMarker() {
        #expect(Self.python("CreateAuditBase`2").hasSuffix("""
            Table = TypeVar('Table')
            TResponse = TypeVar('TResponse')


            @dataclass_json(letter_case=LetterCase.CAMEL, undefined=Undefined.EXCLUDE)
            @dataclass
            class CreateAuditBase(Generic[Table, TResponse], IReturn[TResponse], ICreateDb[Table]):
                @staticmethod
                def response_type(): return TResponse


            """))
    }

    /// `IReturnVoid` on an abstract base: `response_type()` returns `None`, after the members.
    @Test func abstractVoidBaseReturnsNone() {
        #expect(Self.python("NotifyBase").hasSuffix("""
            class NotifyBase(IReturnVoid):
                note: Optional[str] = None
                @staticmethod
                def response_type(): return None


            """))
    }

    /// A return type naming the request itself quotes it, in the return marker as in the base
    /// (servicestack-python's tests/dtos.py, `MessageQuery`).
    @Test func selfReferencingReturnTypeIsQuoted() {
        #expect(Self.python("MessageQuery").hasSuffix("""
            class MessageQuery(QueryDb["MessageQuery"], IReturn[QueryResponse["MessageQuery"]]):
                id: int = 0


            """))
    }

    /// Only the whole name is quoted: a request `Query` returning `QueryResponse<Query>` keeps
    /// `QueryResponse` as it is.
    @Test func onlyTheWholeNameIsQuoted() {
        #expect(PythonTypeWriter.quoting("Query", in: "QueryResponse[Query]") == #"QueryResponse["Query"]"#)
        #expect(PythonTypeWriter.quoting("AllTypes", in: "AllTypes") == #""AllTypes""#)
        #expect(PythonTypeWriter.quoting("Pair", in: "Dict[str, Pair]") == #"Dict[str, "Pair"]"#)
        #expect(PythonTypeWriter.quoting("Query", in: "List[QueryItem]") == "List[QueryItem]")
    }

    /// A class that is not abstract gets no marker from its own `IReturn<T>`: only requests do.
    @Test func concreteTypeGetsNoReturnMarker() {
        #expect(Self.python("PlainBase`1").hasSuffix("""
            class PlainBase(Generic[T]):
                pass


            """))
    }

    /// An array property orders its element's type first (`tool_calls: List[ToolCall]` needs
    /// `ToolCall` declared before `OpenAiMessage`), as ServiceStack's dependency order has since
    /// October 2024.
    @Test func anArraysElementTypeIsDeclaredFirst() throws {
        let text = TestHost.call(.get, "/types/python", app: try TestHost.load("ai")).text
        let classes = text.matches(of: #/\nclass (\w+)/#).map { String($0.output.1) }
        let toolCall = try #require(classes.firstIndex(of: "ToolCall"))
        #expect(classes.firstIndex(of: "OpenAiMessage").map { toolCall < $0 } == true)
        #expect(classes.firstIndex(of: "ChoiceMessage").map { toolCall < $0 } == true)
    }

    /// techstacks.io's `Ping` and `Hello` lead its operations and `HelloResponse` sits among its
    /// types, as servicestack-python's techstacks_dtos.py (the host's only file with them) lists them.
    @Test func techStacksHelloTypesAreWhereTheHostPutsThem() throws {
        let text = TestHost.call(.get, "/types/python", app: try TestHost.load("techstacks")).text
        let classes = text.matches(of: #/\nclass (\w+)/#).map { String($0.output.1) }
        let option = try #require(classes.firstIndex(of: "Option"))
        #expect(classes[option + 1] == "HelloResponse")
        let ping = try #require(classes.firstIndex(of: "Ping"))
        #expect(classes[ping + 1...ping + 2] == ["Hello", "GetOrganization"])
    }
}
