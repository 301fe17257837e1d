import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The VB.NET generator's rules that the golden files do not spell out on their own.
@Suite struct VbNetGeneratorTests {
    static func vbnet(_ query: String, app: String = "techstacks") -> String {
        ScriptGoldenTests.dtos(.vbNet, app, query).text
    }

    /// How ServiceStack's VB.NET `Type()` spells .NET types.
    @Test func typeSpellings() {
        #expect(VbNetTypeMap.type("Nullable`1", ["Int32"]) == "Nullable(Of Integer)")
        #expect(VbNetTypeMap.type("List`1", ["DateTime"]) == "List(Of Date)")
        #expect(VbNetTypeMap.type("Dictionary`2", ["String", "List<Int64>"]) == "Dictionary(Of String, List(Of Int64))")
        #expect(VbNetTypeMap.type("Int64[]", nil) == "Long()")
        #expect(VbNetTypeMap.type("IReturn`1", [VbNetTypeMap.type("QueryResponse`1", ["Poco"])]) == "IReturn(Of QueryResponse(Of Poco))")
        #expect(VbNetTypeMap.name("Stop") == "Stop" && VbNetTypeMap.name("Function") == "[Function]")
        #expect(VbNetTypeMap.nameOnly("Evil\n{ }") == "Evil__ _")
    }

    /// A request names its return marker and interfaces on `Implements` lines, and attributes
    /// take VB.NET's `:=`.
    @Test func aRequestNamesWhatItReturns() {
        let text = Self.vbnet("IncludeTypes=GetTechnology")
        #expect(text.contains("\n        <Route(\"/technology/{Slug}\")>\n        Public Partial Class GetTechnology\n            Implements IReturn(Of GetTechnologyResponse)\n"))
        let contracts = Self.vbnet("IncludeTypes=GetConfig.*&AddDataContractAttributes=True&AddIndexesToDataMembers=True")
        #expect(contracts.contains("\n            <DataMember(Order:=1)>\n"))
    }

    /// The header is `'` lines: a given option behind one, a default behind three, the lists
    /// of types joined by `, `; no line closes it.
    @Test func theHeaderIsCommentLines() {
        let text = Self.vbnet("IncludeTypes=GetTechnology,GetTechnologyResponse&MakeVirtual=False")
        #expect(text.hasPrefix("' Options:\n'Date: "))
        #expect(text.contains("\n'Tip: To override a DTO option, remove \"''\" prefix before updating\n"))
        #expect(text.contains("\n'\n'''GlobalNamespace: \n'''MakePartial: True\n'MakeVirtual: False\n"))
        #expect(text.contains("\n'IncludeTypes: GetTechnology, GetTechnologyResponse\n"))
        #expect(text.contains("\n'''AddDefaultXmlNamespace: http://schemas.servicestack.net/types\n\nImports System\n"))
        #expect(text.hasSuffix("\n    End Namespace\nEnd Namespace\n\n"))
    }

    /// A query cannot write code: a header value stays on its comment line, and `Imports` and
    /// `Namespace` take only names.
    @Test func queryTextNeverBecomesCode() {
        let text = Self.vbnet(
            "IncludeTypes=GetTechnology&GlobalNamespace=a%0AImports%20Evil&AddNamespaces=X%0AImports%20Y,Ok.Name&BaseUrl=x%0D%0AEnd%20Namespace")
        #expect(!text.contains("\nImports Evil") && !text.contains("\nImports Y") && !text.contains("\nImports X"))
        #expect(text.contains("\nImports Ok.Name\n"))
        #expect(text.contains("\n'BaseUrl: x End Namespace\n"))
        #expect(text.contains("\n'GlobalNamespace: a Imports Evil\n"))
        #expect(text.contains("\n    Namespace TechStacks.ServiceModel\n"))
    }
}
