import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Every generated DTO file but Swift's byte for byte against the files under
/// `Tests/Golden/{language}/` (the header's date pinned by the test
/// clock, the base URL by the Host header): each shipped app in full, and each header option on
/// a small techstacks selection. After an intended change, regenerate them with
/// `MOCKSTACK_UPDATE_GOLDEN=1 swift test --filter ScriptGoldenTests` and review the diff.
@Suite struct ScriptGoldenTests {
    static let apps = SwiftGoldenTests.apps
    static let selection = SwiftGoldenTests.selection

    /// (golden file, app, query string), for both languages.
    static let shared: [(String, String, String)] = [
        ("test", "test", ""),
        ("ai", "ai", ""),
        ("techstacks", "techstacks", ""),
        ("techstacks.include-types", "techstacks", selection),
        ("techstacks.include-tag", "techstacks", "IncludeTypes={Site}"),
        ("techstacks.exclude-types", "techstacks", selection + "&ExcludeTypes=TechnologyView,TechnologyTier"),
        ("techstacks.servicestack-types", "techstacks", selection + "&AddServiceStackTypes=False"),
        ("techstacks.response-status", "techstacks", "IncludeTypes=GetConfig.*&AddResponseStatus=True"),
        ("techstacks.implicit-version", "techstacks", selection + "&AddImplicitVersion=3"),
        ("techstacks.descriptions", "techstacks", "IncludeTypes=GetConfig.*&AddDescriptionAsComments=False"),
        ("techstacks.global-namespace", "techstacks", selection + "&GlobalNamespace=TechStacks"),
        ("techstacks.properties-optional", "techstacks", selection + "&MakePropertiesOptional=True"),
        ("techstacks.collections", "techstacks", selection + "&InitializeCollections=True"),
        ("techstacks.without-options", "techstacks", selection + "&WithoutOptions=true"),
    ]

    /// The shared variants whose options the language reads (a variant of an option it ignores
    /// would repeat another).
    static func shared(for language: DTOLanguage) -> [(DTOLanguage, String, String, String)] {
        shared.filter { _, _, query in
            query.split(separator: "&").allSatisfy { pair in
                let name = String(pair.split(separator: "=")[0])
                return name == "IncludeTypes" || language.options.contains(name)
            }
        }.map { (language, $0.0, $0.1, $0.2) }
    }

    static let variants: [(DTOLanguage, String, String, String)] =
        shared(for: .python) + shared(for: .typeScript) + shared(for: .typeScriptDeclarations) + shared(for: .mjs)
        + shared(for: .commonJS) + shared(for: .java) + shared(for: .kotlin) + shared(for: .dart)
        + shared(for: .cSharp) + shared(for: .fSharp) + shared(for: .vbNet) + shared(for: .php) + [
            (.python, "techstacks.default-imports", "techstacks", selection + "&DefaultImports=datetime,typing:*,servicestack:*"),
            (.python, "techstacks.data-class", "techstacks", selection + "&DataClass=frozen=True&DataClassJson=letter_case=LetterCase.SNAKE"),
            (.typeScript, "techstacks.default-imports", "techstacks", selection + "&DefaultImports=Observable:rxjs"),
            (.typeScriptDeclarations, "techstacks.properties-required", "techstacks", selection + "&MakePropertiesOptional=False"),
            (.mjs, "techstacks.without-annotations", "techstacks", selection + "&AddDocAnnotations=False"),
            (.commonJS, "test.enums-and-generics", "test", "IncludeTypes=EnumType,EnumWithValues,EnumFlags,KeyValuePair`2,QueryItems,QueryDb`1,QueryBase,Item,Poco,HelloVoid,HelloReturnVoid,HelloList,ListResult,HelloString,ReturnBytes,StoreRockstars,Rockstar,LivingStatus"),
            (.mjs, "test.enums-and-generics", "test", "IncludeTypes=EnumType,EnumWithValues,EnumFlags,KeyValuePair`2,QueryItems,QueryDb`1,QueryBase,Item,Poco,HelloVoid,HelloReturnVoid,HelloList,ListResult,HelloString,ReturnBytes,StoreRockstars,Rockstar,LivingStatus"),
            (.java, "techstacks.package", "techstacks", selection + "&Package=io.techstacks&GlobalNamespace=TechStacksDtos"),
            (.java, "techstacks.without-accessors", "techstacks", selection + "&AddPropertyAccessors=False"),
            (.java, "techstacks.void-setters", "techstacks", selection + "&SettersReturnThis=False"),
            (.java, "techstacks.types-as-strings", "techstacks", selection + "&TreatTypesAsStrings=TechnologyTier"),
            (.java, "techstacks.default-imports", "techstacks", selection + "&DefaultImports=java.util.*,net.servicestack.client.*"),
            (.kotlin, "techstacks.package", "techstacks", selection + "&Package=io.techstacks"),
            (.kotlin, "techstacks.types-as-strings", "techstacks", selection + "&TreatTypesAsStrings=TechnologyTier"),
            (.kotlin, "test.collections", "test", "IncludeTypes=AllTypes,EchoCollections,QueryRockstars,Rockstar,LivingStatus&InitializeCollections=True"),
            (.kotlin, "test.overrides", "test", "IncludeTypes=SpeechToText,IGeneration,HelloWithInheritance,HelloBase"),
            (.kotlin, "techstacks.data-contracts", "techstacks", "IncludeTypes=GetConfig.*&AddDataContractAttributes=True&AddIndexesToDataMembers=True&AddResponseStatus=True"),
            (.java, "techstacks.data-contracts", "techstacks", "IncludeTypes=GetConfig.*&AddDataContractAttributes=True&AddIndexesToDataMembers=True&AddReturnMarker=True&AddResponseStatus=True"),
            (.dart, "techstacks.default-imports", "techstacks", selection + "&DefaultImports=dart:typed_data,package:servicestack/servicestack.dart"),
            (.dart, "test.return-marker", "test", "IncludeTypes=HelloWithGenericInheritance,Hello,HelloVoid,HelloResponse,HelloBase`1,Poco&AddReturnMarker=True"),
            (.dart, "test.list-base", "test", "IncludeTypes=StoreRockstars,Rockstar"),
            (.cSharp, "techstacks.make-partial", "techstacks", selection + "&MakePartial=False&MakeVirtual=False"),
            (.cSharp, "techstacks.make-internal", "techstacks", selection + "&MakeInternal=True"),
            (.cSharp, "techstacks.return-marker", "techstacks", selection + "&AddReturnMarker=False"),
            (.cSharp, "techstacks.nullable", "techstacks", selection + "&AddNullableAnnotations=True"),
            (.cSharp, "techstacks.data-contracts", "techstacks", selection + "&AddDataContractAttributes=True&AddIndexesToDataMembers=True&AddResponseStatus=True"),
            (.cSharp, "techstacks.extensible", "techstacks", selection + "&MakeDataContractsExtensible=True&AddGeneratedCodeAttributes=True"),
            (.cSharp, "techstacks.add-namespaces", "techstacks", selection + "&AddNamespaces=MyApp.Extras&ExportValueTypes=True"),
            (.cSharp, "test.servicestack-types", "test", "AddServiceStackTypes=True"),
            (.fSharp, "techstacks.data-contracts", "techstacks", selection + "&AddDataContractAttributes=True&AddIndexesToDataMembers=True&AddResponseStatus=True"),
            (.fSharp, "techstacks.extensible", "techstacks", selection + "&MakeDataContractsExtensible=True&AddGeneratedCodeAttributes=True&AddReturnMarker=False"),
            (.fSharp, "techstacks.export-value-types", "techstacks", selection + "&ExportValueTypes=True&AddNamespaces=MyApp.Extras"),
            (.fSharp, "test.generics", "test", "IncludeTypes=HelloBase,HelloBase`1,QueryItems,Item,Poco,CustomUserSession,AuthUserSession,HelloWithEnum,EnumType,IPoco&InitializeCollections=True"),
            (.vbNet, "techstacks.make-partial", "techstacks", selection + "&MakePartial=False&MakeVirtual=False"),
            (.vbNet, "techstacks.data-contracts", "techstacks", selection + "&AddDataContractAttributes=True&AddIndexesToDataMembers=True&AddResponseStatus=True"),
            (.vbNet, "techstacks.extensible", "techstacks", selection + "&MakeDataContractsExtensible=True&AddGeneratedCodeAttributes=True&AddReturnMarker=False"),
            (.vbNet, "test.generics", "test", "IncludeTypes=HelloBase,HelloBase`1,QueryItems,Item,Poco,CustomUserSession,AuthUserSession,HelloWithEnum,EnumType,IPoco,AllTypes,SubType&InitializeCollections=True&AddImplicitVersion=2"),
            (.php, "techstacks.default-imports", "techstacks", selection + "&DefaultImports=App\\Support\\Clock,Carbon\\Carbon"),
            (.php, "techstacks.return-marker", "techstacks", "IncludeTypes=GetConfig.*,GetTechnology.*&AddReturnMarker=True"),
            (.php, "test.generics", "test", "IncludeTypes=HelloBase,HelloBase`1,QueryItems,Item,Poco,CustomUserSession,AuthUserSession,MessageCrud,AllCollectionTypes"),
        ]

    static func dtos(_ language: DTOLanguage, _ app: String, _ query: String) -> HTTPResponse {
        TestHost.call(.get, "/types/\(language.rawValue)" + (query.isEmpty ? "" : "?" + query), headers: ["Host": "127.0.0.1:8080"], app: apps[app]!)
    }

    static func fileName(_ language: DTOLanguage, _ name: String) -> URL {
        TestHost.packageRoot.appendingPathComponent("Tests/Golden/\(language.rawValue)/\(name).\(language.fileExtension).txt")
    }

    /// What comments a header's option out, the line that closes the header, and what starts a
    /// given option's line (VB.NET's header is all `'` comment lines and ends at its blank line), by language.
    static func header(_ language: DTOLanguage) -> (prefix: String, close: String, given: String) {
        switch language {
        case .python: ("#", "\"\"\"", "")
        case .swift, .typeScript, .typeScriptDeclarations, .mjs, .commonJS, .java, .kotlin, .dart, .cSharp, .php: ("//", "*/", "")
        case .fSharp: ("//", "*)", "")
        case .vbNet: ("'''", "", "'")
        }
    }

    @Test(arguments: variants) func matchesItsGoldenFile(language: DTOLanguage, name: String, app: String, query: String) throws {
        let response = Self.dtos(language, app, query)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == language.contentType)
        let text = response.text
        let file = Self.fileName(language, name)
        if ProcessInfo.processInfo.environment["MOCKSTACK_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try #require(try? String(contentsOf: file, encoding: .utf8), "missing \(file.path): run with MOCKSTACK_UPDATE_GOLDEN=1")
        #expect(text == golden, "\(language) \(name): first difference at line \(Self.firstDifference(text, golden))")
    }

    private static func firstDifference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) where !left.indices.contains(index) || !right.indices.contains(index) || left[index] != right[index] {
            return "\(index + 1): got \(left.indices.contains(index) ? String(left[index]) : "<end>") | golden \(right.indices.contains(index) ? String(right[index]) : "<end>")"
        }
        return "none"
    }

    // MARK: The update round-trip

    /// The variants whose options are all in the header: only those survive an update (as with
    /// ServiceStack, `InitializeCollections` and Python's `MakePropertiesOptional` are not).
    static let headerVariants = variants.filter { language, _, _, query in
        let header = language.headerOptions
        return query.split(separator: "&").allSatisfy { header.contains(String($0.split(separator: "=")[0])) }
    }

    /// `x python dtos.py` / `x ts dtos.ts`: every header line after `BaseUrl:` that the comment
    /// prefix (`#`, `//`) does not disable becomes `Key=value`; asking again with those gives the same file.
    @Test(arguments: headerVariants) func updatingFromTheHeaderGivesTheSameFile(language: DTOLanguage, name: String, app: String, query: String) {
        let file = Self.dtos(language, app, query).text
        let (prefix, close, given) = Self.header(language)
        // A VB.NET header line loses its leading `'` (its lone `'` line, too) but for a commented-out option.
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false).filter { given.isEmpty || $0 != Substring(given) }.map {
            given.isEmpty || $0.hasPrefix(prefix) || !$0.hasPrefix(given) ? $0 : $0.dropFirst(given.count)
        }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("BaseUrl: ") }), let end = lines[start...].firstIndex(of: Substring(close)) else {
            Issue.record("\(name): no header")
            return
        }
        let pairs = lines[(start + 1)..<end].filter { !$0.isEmpty && !$0.hasPrefix(prefix) }.map { line -> String in
            let colon = line.firstIndex(of: ":")!
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return line[..<colon] + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
        }
        #expect(Self.dtos(language, app, pairs.joined(separator: "&")).text == file, "\(language) \(name)")
    }

    // MARK: Header rules

    /// An option given empty stays commented out, as ServiceStack's generators test for a value.
    @Test(arguments: [DTOLanguage.python, .typeScript, .typeScriptDeclarations, .mjs, .commonJS, .java, .kotlin, .dart, .cSharp, .fSharp, .vbNet, .php]) func anEmptyOptionStaysCommentedOut(language: DTOLanguage) {
        // The JavaScript files' headers have no AddResponseStatus.
        let option = language.headerOptions.contains("AddResponseStatus") ? "AddResponseStatus" : "AddServiceStackTypes"
        let text = Self.dtos(language, "techstacks", "IncludeTypes=&\(option)=True").text
        let (prefix, _, given) = Self.header(language)
        #expect(text.contains("\n\(prefix)IncludeTypes: \n"))
        #expect(text.contains("\n\(given)\(option): True\n"))
    }

    /// A query cannot write code: a header value stays on its line, and imports that are not
    /// module names are left out.
    @Test func queryTextNeverBecomesCode() {
        let python = Self.dtos(.python, "techstacks", "IncludeTypes=GetConfig&DefaultImports=os;import%20sys,typing:*&GlobalNamespace=a%0Aimport%20os").text
        #expect(!python.contains("\nimport sys"))
        #expect(!python.contains("\nimport os"))
        #expect(python.contains("\nfrom typing import *\n"))
        let typeScript = Self.dtos(.typeScript, "techstacks", "IncludeTypes=GetConfig&DefaultImports=x%22;alert(1)//:y&BaseUrl=*/alert(1)/*").text
        #expect(!typeScript.contains("alert(1);"))
        #expect(!typeScript.contains("*/alert"))
        let declarations = Self.dtos(.typeScriptDeclarations, "techstacks", "IncludeTypes=GetConfig&GlobalNamespace=a%7B%7D%0Aalert(1)&BaseUrl=*/alert(1)/*").text
        #expect(declarations.contains("\ndeclare module a___alert_1_\n{\n"))
        #expect(!declarations.contains("alert(1);") && !declarations.contains("*/alert"))
        let module = Self.dtos(.mjs, "techstacks", "IncludeTypes=GetConfig&DefaultImports=x%22;alert(1)//:y&BaseUrl=*/alert(1)/*").text
        #expect(!module.contains("alert(1);") && !module.contains("*/alert") && !module.contains("import"))
        let commonJS = Self.dtos(.commonJS, "techstacks", "IncludeTypes=GetConfig&DefaultImports=x%22;alert(1)//:y&BaseUrl=*/alert(1)/*").text
        #expect(!commonJS.contains("alert(1);") && !commonJS.contains("*/alert") && !commonJS.contains("require("))
        let java = Self.dtos(
            .java, "techstacks",
            "IncludeTypes=GetConfig&Package=a;class%20X{}&DefaultImports=java.util.*,x;class%20Y{}&GlobalNamespace=a%20b&BaseUrl=*/class%20Z{}/*%5Cu002a/"
        ).text
        let code = String(java[java.range(of: "\n*/\n")!.upperBound...])
        #expect(!code.contains("package ") && !code.contains("class X") && !code.contains("class Y"))
        #expect(code.hasPrefix("\nimport java.util.*;\n\npublic class a_b\n{\n"))
        #expect(java.contains("\nBaseUrl: * /class Z{}/ *\\ u002a/\n"))
        let kotlin = Self.dtos(.kotlin, "techstacks", "IncludeTypes=GetConfig&Package=a%0Aclass%20X&BaseUrl=/*").text
        let kotlinCode = String(kotlin[kotlin.range(of: "\n*/\n")!.upperBound...])
        #expect(!kotlinCode.contains("package ") && !kotlinCode.contains("class X"))
        // Kotlin's comments nest: a `/*` left whole would swallow the rest of the file.
        #expect(kotlin.contains("\nBaseUrl: / *\n"))
        let dart = Self.dtos(.dart, "techstacks", "IncludeTypes=GetConfig&DefaultImports=x';import%20'y,dart:async&GlobalNamespace=a;import%20'b&BaseUrl=*/alert(1)/*").text
        #expect(!dart.contains("\nimport 'y"))
        #expect(!dart.contains("\nimport 'b"))
        #expect(dart.contains("\nimport 'dart:async';\n"))
        #expect(dart.contains("\nlibrary a_import__b;\n"))
        #expect(!dart.contains("*/alert"))
    }

    /// The files answer any verb, under their journal names, cached per query.
    @Test func servedToAnyVerb() {
        let app = Self.apps["test"]!
        let python = TestHost.call(.post, "/types/python", app: app)
        #expect(python.status == 200 && python.operation == "TypesPython")
        let typeScript = TestHost.call(.get, "/types/TypeScript", app: app)
        #expect(typeScript.status == 200 && typeScript.operation == "TypesTypeScript")
        let declarations = TestHost.call(.post, "/types/typescript.d", app: app)
        #expect(declarations.status == 200 && declarations.operation == "TypesTypeScriptDefinition" && declarations.headers["Content-Type"] == MediaType.text)
        let kotlin = TestHost.call(.delete, "/types/kotlin", app: app)
        #expect(kotlin.status == 200 && kotlin.operation == "TypesKotlin")
        let java = TestHost.call(.put, "/types/java", app: app)
        #expect(java.status == 200 && java.operation == "TypesJava" && java.headers["Content-Type"] == MediaType.text)
        let module = TestHost.call(.get, "/types/mjs", app: app)
        #expect(module.status == 200 && module.operation == "TypesMjs" && module.headers["Content-Type"] == "application/javascript")
        let commonJS = TestHost.call(.patch, "/types/js", app: app)
        #expect(commonJS.status == 200 && commonJS.operation == "TypesCommonJs" && commonJS.headers["Content-Type"] == "application/javascript")
        let dart = TestHost.call(.get, "/types/dart", app: app)
        #expect(dart.status == 200 && dart.operation == "TypesDart")
        let fSharp = TestHost.call(.patch, "/types/fsharp", app: app)
        #expect(fSharp.status == 200 && fSharp.operation == "TypesFSharp" && fSharp.headers["Content-Type"] == MediaType.text)
        let vbNet = TestHost.call(.get, "/types/vbnet", app: app)
        #expect(vbNet.status == 200 && vbNet.operation == "TypesVbNet" && vbNet.headers["Content-Type"] == MediaType.text)
        let php = TestHost.call(.get, "/types/php", app: app)
        #expect(php.status == 200 && php.operation == "TypesPhp" && php.headers["Content-Type"] == "application/javascript")
        #expect(TestHost.call(.get, "/types/dtos", app: app).status == 404)
    }
}
