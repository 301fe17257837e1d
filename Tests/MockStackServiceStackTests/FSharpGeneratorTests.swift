import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The F# generator's rules that the golden files do not spell out on their own.
@Suite struct FSharpGeneratorTests {
    static func fsharp(_ query: String, app: String = "techstacks") -> String {
        ScriptGoldenTests.dtos(.fSharp, app, query).text
    }

    /// How ServiceStack's F# `Type()` spells .NET types: by their .NET names, `List` as `ResizeArray`.
    @Test func typeSpellings() {
        #expect(FSharpTypeMap.type("Nullable`1", ["Int32"]) == "Nullable<Int32>")
        #expect(FSharpTypeMap.type("List`1", ["String"]) == "ResizeArray<String>")
        #expect(FSharpTypeMap.type("Dictionary`2", ["String", "List<Int32>"]) == "Dictionary<String, List<Int32>>")
        #expect(FSharpTypeMap.type("Int64[]", nil) == "Int64[]")
        #expect(FSharpTypeMap.type("QueryDb`2", ["Item", "Poco"]) == "QueryDb<Item, Poco>")
        #expect(FSharpTypeMap.nameOnly("Test.ServiceModel.Hello") == "Hello")
        #expect(FSharpTypeMap.nameOnly("'T") == "'T")
        #expect(FSharpTypeMap.nameOnly("Evil\n{ }") == "Evil__ _")
    }

    /// A request names its return marker and ServiceStack's empty markers only, each on its own line.
    @Test func aRequestNamesWhatItReturns() {
        let text = Self.fsharp("IncludeTypes=GetTechnology")
        #expect(text.contains("    type GetTechnology() = \n        interface IReturn<GetTechnologyResponse>\n        interface IGet\n"))
        #expect(!text.contains("IRegisterStats"))
    }

    /// A type is written after the types it names, as F# reads a file top down.
    @Test func aTypeFollowsWhatItNames() {
        let text = Self.fsharp("")
        let response = text.range(of: "type GetTechnologyResponse() = ")!
        #expect(text.range(of: "type Technology() = ")!.lowerBound < response.lowerBound)
        #expect(response.lowerBound < text.range(of: "type GetTechnology() = ")!.lowerBound)
    }

    /// One namespace: the first ending in `ServiceModel`, or the one the query names.
    @Test func oneNamespace() {
        #expect(Self.fsharp("IncludeTypes=Hello", app: "test").contains("\n*)\n\nnamespace Test.ServiceModel\n\nopen System\n"))
        #expect(Self.fsharp("IncludeTypes=GetTechnology&GlobalNamespace=My.Dtos").contains("\n*)\n\nnamespace My.Dtos\n"))
        let excluded = Self.fsharp("IncludeTypes=GetTechnology&ExcludeNamespace=true")
        #expect(!excluded.contains("\nnamespace ") && excluded.contains("\n[<AllowNullLiteral>]\ntype GetTechnology() = \n    interface"))
    }

    /// A query cannot write code: a header value stays on its line and inside the `(* *)`
    /// comment (which F# nests), and `namespace` and `open` take only names.
    @Test func queryTextNeverBecomesCode() {
        let text = Self.fsharp(
            "IncludeTypes=GetTechnology&GlobalNamespace=a*)%0Aopen%20Evil&AddNamespaces=X%0Aopen%20Y,Ok.Name&BaseUrl=(*%20*)")
        let code = String(text[text.range(of: "\n*)\n")!.upperBound...])
        #expect(!code.contains("Evil") && !code.contains("open Y") && !code.contains("open X"))
        #expect(code.contains("\nopen Ok.Name\n"))
        #expect(text.contains("\nBaseUrl: ( * * )\n"))
        #expect(text.contains("\nGlobalNamespace: a* ) open Evil\n"))
        #expect(code.hasPrefix("\nnamespace TechStacks.ServiceModel\n"))
    }
}
