import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The .NET → Swift type table of docs/servicestack.md#generated-dtos, with the spellings ServiceStack.Swift's generated
/// test DTOs show.
@Suite struct SwiftTypeMapTests {
    private func swift(_ type: String, _ genericArgs: [String] = []) -> String {
        SwiftTypeMap().name(of: TypeReference(type: type, genericArgs: genericArgs))
    }

    @Test(arguments: [
        ("String", "String"), ("Guid", "String"), ("Char", "String"), ("Object", "String"),
        ("Int32", "Int"), ("Int64", "Int"), ("Byte", "UInt8"), ("Int16", "Int16"), ("UInt16", "UInt16"),
        ("UInt32", "UInt32"), ("UInt64", "UInt64"), ("Single", "Float"), ("Double", "Double"), ("Decimal", "Double"),
        ("Boolean", "Bool"), ("DateTime", "Date"), ("DateTimeOffset", "Date"), ("TimeSpan", "TimeInterval"),
        ("Byte[]", "[UInt8]"), ("String[]", "[String]"), ("Poco", "Poco"), ("Stream", "Data"),
    ])
    func scalarsAndArrays(dotNet: String, expected: String) {
        #expect(swift(dotNet) == expected)
    }

    @Test func genericsCollectionsAndNullables() {
        #expect(swift("Nullable`1", ["Int32"]) == "Int")
        #expect(swift("List`1", ["String"]) == "[String]")
        #expect(swift("HashSet`1", ["Int32"]) == "[Int]")
        #expect(swift("List`1", ["Nullable<EnumType>"]) == "[EnumType?]")
        #expect(swift("Dictionary`2", ["String", "ArrayResult"]) == "[String:ArrayResult]")
        #expect(swift("Dictionary`2", ["Int32", "String"]) == "[Int:String]")
        #expect(swift("Dictionary`2", ["String", "List<Poco>"]) == "[String:[Poco]]")
        #expect(swift("KeyValuePair`2", ["String", "String"]) == "KeyValuePair<String, String>")
        #expect(swift("QueryResponse`1", ["TechnologyView"]) == "QueryResponse<TechnologyView>")
        #expect(swift("QueryDb`1", ["Post"]) == "QueryDb<Post>")
        #expect(swift("QueryDb`2", ["Item", "Poco"]) == "QueryDb2<Item, Poco>")
        #expect(SwiftTypeMap.isTimeSpan(TypeReference(type: "Nullable`1", genericArgs: ["TimeSpan"])))
        #expect(SwiftTypeMap.isCollection(TypeReference(type: "Dictionary`2", genericArgs: ["String", "String"])))
        #expect(!SwiftTypeMap.isCollection(TypeReference(type: "KeyValuePair`2", genericArgs: ["String", "String"])))
    }

    /// Swift cannot overload a name by arity, so a name declared with several takes `_N`;
    /// the Swift package's own aliases win.
    @Test func namesDeclaredWithSeveralArities() throws {
        let metadata = try MetadataTypes(json: JSONParser().parse(#"""
        {"types":[{"name":"Page","implements":[],"properties":[]},{"name":"Page`1","genericArgs":["T"],"implements":[],"properties":[]},
                  {"name":"Box`1","genericArgs":["T"],"implements":[],"properties":[]}]}
        """#).root)
        let map = SwiftTypeMap(conflicts: SwiftTypeMap.conflicts(among: metadata.types))
        #expect(map.conflicts == ["Page"])
        #expect(map.name(of: TypeReference(parsing: "Page")) == "Page")
        #expect(map.name(of: TypeReference(type: "Page`1", genericArgs: ["Poco"])) == "Page_1<Poco>")
        #expect(map.name(of: TypeReference(type: "Box`1", genericArgs: ["Poco"])) == "Box<Poco>")
        #expect(SwiftTypeMap(conflicts: ["QueryDb"]).name(of: TypeReference(type: "QueryDb`1", genericArgs: ["Poco"])) == "QueryDb<Poco>")
    }

    @Test func untypedDictionariesAndTypesAsStrings() {
        #expect(swift("Dictionary") == "[String:String]")
        #expect(SwiftTypeMap.isAlwaysOptional(TypeReference(parsing: "Dictionary")))
        #expect(SwiftTypeMap.isAlwaysOptional(TypeReference(type: "Nullable`1", genericArgs: ["Int32"])))
        #expect(!SwiftTypeMap.isAlwaysOptional(TypeReference(parsing: "String")))
        let strings = SwiftTypeMap(strings: ["Poco"])
        #expect(strings.name(of: TypeReference(type: "List`1", genericArgs: ["Poco"])) == "[String]")
    }
}
