import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The C# generator's rules that the golden files do not spell out on their own.
@Suite struct CSharpGeneratorTests {
    static func csharp(_ query: String) -> String {
        ScriptGoldenTests.dtos(.cSharp, "techstacks", query).text
    }

    /// How ServiceStack's `Type()` spells .NET types.
    @Test func typeSpellings() {
        #expect(CSharpTypeMap.type("Nullable`1", ["Int32"]) == "int?")
        #expect(CSharpTypeMap.type("Nullable`1[]", ["DateTime"]) == "DateTime?[]")
        #expect(CSharpTypeMap.type("List`1", ["String"]) == "List<string>")
        // A whole argument is aliased; one inside another is written as the metadata wrote it.
        #expect(CSharpTypeMap.type("Dictionary`2", ["String", "List<Int32>"]) == "Dictionary<string, List<Int32>>")
        #expect(CSharpTypeMap.type("Int64[]", nil) == "long[]")
        #expect(CSharpTypeMap.type("QueryResponse`1", ["Poco"]) == "QueryResponse<Poco>")
        #expect(CSharpTypeMap.nameOnly("Test.ServiceModel.Hello") == "Hello")
        #expect(CSharpTypeMap.safe("Evil\n{ }") == "Evil__ _")
    }

    /// Types sort as .NET compares text: case folded first, a shorter prefix first.
    @Test func typesSortAsDotNetComparesNames() {
        #expect(DotNetCollation.compare("ReturnedDto", "ReturnHtml") < 0)
        #expect(DotNetCollation.compare("Item", "Items") < 0)
        #expect(DotNetCollation.compare("HelloBase`1", "HelloBuiltin") < 0)
        #expect(DotNetCollation.compare("abc", "ABC") < 0)
        #expect(DotNetCollation.compare("Test.ServiceModel", "Test.ServiceModel.Types") < 0)
    }

    /// A request names its return type before the interfaces it implements.
    @Test func aRequestNamesWhatItReturns() {
        let text = Self.csharp("IncludeTypes=GetTechnology")
        #expect(text.contains("    public partial class GetTechnology\n        : IReturn<GetTechnologyResponse>, IRegisterStats, IGet\n"))
    }

    /// A query cannot write code: a header value stays on its line, and `using`, `namespace`
    /// and the data contract namespace take only names.
    @Test func queryTextNeverBecomesCode() {
        let text = Self.csharp(
            "IncludeTypes=GetTechnology&GlobalNamespace=A%0Aclass%20X%7B%7D&AddNamespaces=System.Text,x;%20class%20Y"
                + "&AddDataContractAttributes=True&AddDefaultXmlNamespace=a%22)%5D%0Aclass%20Z")
        #expect(text.contains("\nGlobalNamespace: A class X{}\n"))
        #expect(!text.contains("\nclass "))
        #expect(text.contains("\nusing System.Text;\n"))
        #expect(!text.contains("using x"))
        #expect(!text.contains("namespace A"))
        #expect(text.contains("[assembly: ContractNamespace(\"a)]class Z\", ClrNamespace=\"System.Text\")]"))
    }
}
