import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The rules of `/types/dart` that the golden files show only in passing: how a .NET type is
/// spelt, how a member is named, and that metadata text only ever becomes names.
@Suite struct DartTypeWriterTests {
    static let types = DartTypeMap(conflicts: ["QueryDb`2"])

    /// Dictionaries are `Map<K,V?>` at the top and `Map<K,V>` inside another type; `Nullable<T>`
    /// is `T`, an array of them a list of optionals; bytes are `Uint8List` however they are spelt.
    @Test func typesAreSpeltAsDartSpellsThem() {
        #expect(Self.types.type("Dictionary`2", ["String", "List<Dictionary<String,Poco>>"]) == "Map<String,List<Map<String,Poco>>?>")
        #expect(Self.types.type("Nullable`1", ["Int32"]) == "int")
        #expect(Self.types.type("Nullable`1[]", ["DateTime"]) == "List<DateTime?>")
        #expect(Self.types.type("Nullable<Byte>[]", []) == "Uint8List")
        #expect(Self.types.type("Byte[]", []) == "Uint8List")
        #expect(Self.types.type("Poco[]", []) == "List<Poco>")
        #expect(Self.types.type("HashSet`1", ["Int64"]) == "List<int>")
        #expect(Self.types.type("QueryDb`2", ["Item", "Poco"]) == "QueryDb2<Item,Poco>")
        #expect(Self.types.type("QueryResponse`1", ["QueryDb<Item,Poco>"]) == "QueryResponse<QueryDb2<Item,Poco>>")
        #expect(Self.types.type("TimeSpan", []) == "Duration")
    }

    /// A name from metadata stays a name: anything but letters, digits and `_` becomes `_`.
    @Test func metadataNamesStayNames() {
        #expect(Self.types.type("Evil\"();//", []) == "Evil______")
        #expect(Self.types.argument("List<Bad'Name>") == "List<Bad_Name>")
        #expect(DartGenerator.importLine("x'; import 'y") == nil)
        #expect(DartGenerator.importLine("package:servicestack/servicestack.dart") == "import 'package:servicestack/servicestack.dart';")
        #expect(DartGenerator.libraryName("a;b c") == "a_b_c")
    }

    /// A member named a Dart reserved word is capitalised; a data member keeps its own name.
    @Test func memberNames() throws {
        let json = try JSONParser().parse(#"""
            {"types":[{"name":"T","properties":[
              {"name":"Int","type":"Int32","namespace":"System"},
              {"name":"Range","type":"Double","namespace":"System","dataMember":{"name":"Aliased"}},
              {"name":"UShort","type":"UInt16","namespace":"System"}]}],"operations":[]}
            """#).root
        let properties = try MetadataTypes(json: json).types[0].properties
        #expect(properties.map(DartTypeWriter.fieldName) == ["Int", "Aliased", "uShort"])
    }

    /// The registry's library is the host of the base URL, without port or credentials.
    @Test func registryLibraryIsTheHost() {
        #expect(DartGenerator.host("https://test.servicestack.net") == "test.servicestack.net")
        #expect(DartGenerator.host("http://u:p@127.0.0.1:8080/api") == "127.0.0.1")
    }

    /// A generic class reads a member of its own type parameters with their runtime types, and
    /// the registry lists what the file declares once, in the order met.
    @Test func genericMembersAndRegistry() throws {
        let json = try JSONParser().parse(#"""
            {"types":[{"name":"Page`1","namespace":"Demo","genericArgs":["T"],"implements":[],"properties":[
              {"name":"Items","type":"List`1","namespace":"System.Collections.Generic","genericArgs":["T"]},
              {"name":"Tags","type":"Dictionary`2","namespace":"System.Collections.Generic","genericArgs":["String","Int32"]}]}],
             "operations":[]}
            """#).root
        let text = DartGenerator(metadata: try MetadataTypes(json: json)).render(
            query: [("WithoutOptions", "true")], date: DateTimeValue(parsing: "2026-01-01T00:00:00Z")!,
            baseURL: "http://localhost:5000")
        #expect(text.contains(#"items = JsonConverters.fromJson(json['items'],'List<${runtimeGenericTypeDefs(this,[0]).join(",")}>',context!);"#))
        #expect(text.contains("'items': JsonConverters.toJson(items,'List<T>',context!),"))
        #expect(text.hasSuffix("""
            TypeContext _ctx = TypeContext(library: 'localhost', types: <String, TypeInfo> {
                'Page<T>': TypeInfo(TypeOf.Class, create:() => Page<T>()),
                'Map<String,int?>': TypeInfo(TypeOf.Class, create:() => Map<String,int?>()),
            });


            """))
    }
}
