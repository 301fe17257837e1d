import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// `/types/swift` byte for byte against the files under `Tests/Golden/swift/` (the header's
/// date is pinned by the test clock, the base URL by the Host header): each shipped app in full,
/// and each option on a small techstacks selection. After an intended change, regenerate them
/// with `MOCKSTACK_UPDATE_GOLDEN=1 swift test --filter SwiftGoldenTests` and review the diff.
@Suite struct SwiftGoldenTests {
    static let apps: [String: ServiceStackApp] = Dictionary(uniqueKeysWithValues: ["test", "ai", "techstacks"].map { ($0, try! TestHost.load($0)) })
    static let folder = TestHost.packageRoot.appendingPathComponent("Tests/Golden/swift")
    /// Two requests, their responses and the types they reach: small enough to read in a diff.
    static let selection = "IncludeTypes=GetTechnology.*,FindTechnologies.*"

    /// (golden file, app, query string)
    static let variants: [(String, String, String)] = [
        ("test", "test", ""),
        ("ai", "ai", ""),
        ("techstacks", "techstacks", ""),
        ("techstacks.include-types", "techstacks", selection),
        ("techstacks.include-tag", "techstacks", "IncludeTypes={Site}"),
        ("techstacks.include-namespace", "techstacks", "IncludeTypes=TechStacks.ServiceModel.Types/*"),
        ("techstacks.include-referencing", "techstacks", "IncludeTypes=*.TechnologyTier"),
        ("techstacks.exclude-types", "techstacks", selection + "&ExcludeTypes=TechnologyView,TechnologyTier"),
        ("techstacks.exclude-services", "techstacks", selection + "&ExcludeTypes=services"),
        ("techstacks.base-class", "techstacks", selection + "&BaseClass=NSObject"),
        ("techstacks.model-extensions", "techstacks", selection + "&AddModelExtensions=False"),
        ("techstacks.properties-optional", "techstacks", selection + "&MakePropertiesOptional=False"),
        ("techstacks.response-status", "techstacks", selection + "&AddResponseStatus=True"),
        ("techstacks.implicit-version", "techstacks", selection + "&AddImplicitVersion=3"),
        ("techstacks.descriptions", "techstacks", selection + "&AddDescriptionAsComments=False"),
        ("techstacks.collections", "techstacks", selection + "&InitializeCollections=False"),
        ("techstacks.types-as-strings", "techstacks", selection + "&TreatTypesAsStrings=TechnologyTier"),
        ("techstacks.default-imports", "techstacks", selection + "&DefaultImports=Foundation,Combine"),
        ("techstacks.generic-bases", "techstacks", selection + "&ExcludeGenericBaseTypes=True"),
        ("techstacks.without-options", "techstacks", selection + "&WithoutOptions=true"),
        ("test.servicestack-types", "test", "IncludeTypes=Authenticate.*,Hello.*&AddServiceStackTypes=False"),
    ]

    static func dtos(_ app: String, _ query: String) -> String {
        TestHost.call(.get, "/types/swift" + (query.isEmpty ? "" : "?" + query), headers: ["Host": "127.0.0.1:8080"], app: apps[app]!).text
    }

    @Test(arguments: variants) func matchesItsGoldenFile(name: String, app: String, query: String) throws {
        let text = Self.dtos(app, query)
        let file = Self.folder.appendingPathComponent("\(name).swift.txt")
        if ProcessInfo.processInfo.environment["MOCKSTACK_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try #require(try? String(contentsOf: file, encoding: .utf8), "missing \(file.path): run with MOCKSTACK_UPDATE_GOLDEN=1")
        #expect(text == golden, "\(name): first difference at line \(Self.firstDifference(text, golden))")
    }

    private static func firstDifference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) where left.indices.contains(index) != right.indices.contains(index) || (left.indices.contains(index) && left[index] != right[index]) {
            return "\(index + 1): got \(left.indices.contains(index) ? String(left[index]) : "<end>") | golden \(right.indices.contains(index) ? String(right[index]) : "<end>")"
        }
        return "none"
    }

    // MARK: The update round-trip

    /// `x swift File.dtos.swift`: every line after `BaseUrl:` up to `*/` that is not blank and
    /// does not start with `//` becomes `Key=value`; asking again with those gives the same file.
    @Test(arguments: variants.filter { !$0.2.contains("WithoutOptions") }) func updatingFromTheHeaderGivesTheSameFile(name: String, app: String, query: String) {
        let file = Self.dtos(app, query)
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("BaseUrl: ") }), let end = lines.firstIndex(of: "*/") else {
            Issue.record("\(name): no header")
            return
        }
        let pairs = lines[(start + 1)..<end].filter { !$0.isEmpty && !$0.hasPrefix("//") && $0.contains(":") }.map { line -> String in
            let colon = line.firstIndex(of: ":")!
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return line[..<colon] + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
        }
        #expect(Self.dtos(app, pairs.joined(separator: "&")) == file, "\(name)")
    }

    // MARK: IncludeTypes edge cases

    @Test func includeTypesEdgeCases() {
        func classes(_ query: String) -> [String] {
            Self.dtos("techstacks", query + "&WithoutOptions=true").split(separator: "\n")
                .compactMap { $0.hasPrefix("public ") ? $0.split(separator: " ")[2].split(separator: "<")[0].description : nil }
        }
        // An unknown name selects nothing, and is not an error.
        #expect(classes("IncludeTypes=NoSuchType").isEmpty)
        #expect(classes("IncludeTypes=NoSuchType.*").isEmpty)
        #expect(classes("IncludeTypes=NoSuchType,GetConfig") == ["GetConfig"])
        // Cycles end: TechStackDetails and TechnologyInStack reach their bases and back.
        let details = classes("IncludeTypes=GetTechnologyStack.*")
        #expect(details.filter { $0 == "TechStackDetails" }.count == 1)
        #expect(Set(details).isSuperset(of: ["GetTechnologyStack", "GetTechnologyStackResponse", "TechStackDetails", "TechnologyStackBase", "TechnologyInStack", "TechnologyBase"]))
        // Tags select their operations with everything they reach, in any case, several at once.
        #expect(classes("IncludeTypes={site}") == classes("IncludeTypes={Site}"))
        let both = classes("IncludeTypes={Site,Posts}")
        #expect(both.contains("GetConfig") && both.contains("QueryPosts") && both.contains("Post"))
        #expect(!both.contains("FindTechnologies"))
        // A name and a pattern together; the request's interface comes with `.*`.
        #expect(classes("IncludeTypes=GetTechnology.*").contains("IRegisterStats"))
        #expect(classes("IncludeTypes=GetTechnology") == ["GetTechnology"])
    }

    // MARK: /types

    @Test func typeLinksPointAtEachLanguage() throws {
        let response = TestHost.call(.post, "/types", headers: ["Host": "127.0.0.1:8080"], app: Self.apps["test"]!)
        #expect(response.status == 200)
        let links = try #require(try JSONParser().parse(response.body).root.objectValue)
        #expect(links.members.first?.key == "Metadata")
        #expect(links["Metadata"] == "http://127.0.0.1:8080/types/metadata")
        #expect(links["Swift"] == "http://127.0.0.1:8080/types/swift")
        #expect(links["TypeScriptDefinition"] == "http://127.0.0.1:8080/types/typescript.d")
        #expect(links.members.count == 18)
        // The generated files answer any verb, as ServiceStack's `Any` services do.
        #expect(TestHost.call(.post, "/types/swift", app: Self.apps["test"]!).status == 200)
    }
}
