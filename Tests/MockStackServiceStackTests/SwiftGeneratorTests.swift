import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// `/types/swift` for the shipped apps: served as text with the header, and type-checked by
/// `swiftc` against a shim of the ServiceStack Swift package (Tests/SwiftShim).
@Suite struct SwiftGeneratorTests {
    static let apps = ["test", "ai", "techstacks"].map { (name: $0, app: try! TestHost.load($0)) }

    private func dtos(_ app: ServiceStackApp, _ target: String = "/types/swift", headers: HTTPHeaders = ["Host": "127.0.0.1:8080"]) -> HTTPResponse {
        TestHost.call(.get, target, headers: headers, app: app)
    }

    @Test func servedAsTextWithTheHeader() {
        for (name, app) in Self.apps {
            let response = dtos(app)
            #expect(response.status == 200)
            #expect(response.contentType == "text/plain; charset=utf-8")
            let version = name == "techstacks" ? "5.0" : "6.0"
            #expect(response.text.hasPrefix("/* Options:\nDate: 2025-11-21 22:15:03\nSwiftVersion: \(version)\nVersion: 8.41\n"), "\(name)")
            // Called without the server in front, the app has no mount to add.
            #expect(response.text.contains("\nBaseUrl: http://127.0.0.1:8080\n\n//BaseClass: \n"), "\(name)")
            #expect(response.text.contains("*/\n\nimport Foundation\nimport ServiceStack\n\n"), "\(name)")
            #expect(dtos(app, "/types/swift4").text == response.text)
        }
        let proxied = dtos(Self.apps[2].app, headers: ["Host": "10.0.0.5:8080", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "mock.example.org"])
        #expect(proxied.text.contains("\nBaseUrl: https://mock.example.org\n"))
        let bare = dtos(Self.apps[0].app, "/types/swift?WithoutOptions=true")
        #expect(bare.text.hasPrefix("import Foundation\nimport ServiceStack\n\n"))
    }

    @Test func includeTypesSelectsAndTheHeaderSaysSo() {
        let text = dtos(Self.apps[2].app, "/types/swift?IncludeTypes=GetTechnology.*").text
        #expect(text.contains("\nIncludeTypes: GetTechnology.*\n"))
        #expect(text.contains("public class GetTechnology : IReturn, IRegisterStats, IGet, Codable"))
        #expect(text.contains("public protocol IRegisterStats\n{\n}\n"))
        #expect(text.contains("public class GetTechnologyResponse : Codable"))
        #expect(text.contains("public enum TechnologyTier : String, Codable"))
        #expect(!text.contains("class FindTechnologies"))
    }

    /// Option variants type-check against the shim too (each app's full file is compiled and
    /// run in SwiftRoundTripTests).
    @Test(.timeLimit(.minutes(10))) func generatedFilesTypeCheck() async throws {
        let compiler = try #require(SwiftRoundTripTests.swiftc, "swiftc not found")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-dtos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let shim = TestHost.packageRoot.appendingPathComponent("Tests/SwiftShim/ServiceStackShim.swift")
        // `BaseClass=NSObject` on techstacks: the test app's AuthUserSession has a `hash`, which
        // NSObject's would clash with (as it does in the real host's file).
        let variants = [(name: "test-options", app: Self.apps[0].app,
                         target: "/types/swift?InitializeCollections=true&AddResponseStatus=true&AddImplicitVersion=2&ExcludeTypes="
                            + SwiftRoundTripTests.uncompilable["test"]!),
                        (name: "techstacks-options", app: Self.apps[2].app,
                         target: "/types/swift?BaseClass=NSObject&ExcludeGenericBaseTypes=true&TreatTypesAsStrings=TechnologyTier&InitializeCollections=false")]
        for (name, app, target) in variants {
            // The shim stands in for the ServiceStack module, so its import goes; each app is
            // checked on its own, as each would be compiled into its own client.
            let text = dtos(app, target).text.replacingOccurrences(of: "import ServiceStack\n", with: "")
            let file = directory.appendingPathComponent("\(name).dtos.swift")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let checked = try await SwiftRoundTripTests.run(compiler, ["-typecheck", shim.path, file.path])
            #expect(checked.status == 0, "\(name): \(checked.output.prefix(2000))")
        }
    }

    /// The options that change the code (docs/servicestack.md#generated-dtos; rules from ServiceStack's Swift generator).
    @Test func optionsChangeTheCode() {
        let techstacks = Self.apps[2].app
        let excluded = dtos(techstacks, "/types/swift?ExcludeGenericBaseTypes=true&IncludeTypes=FindTechnologies.*").text
        #expect(excluded.contains("\nExcludeGenericBaseTypes: True\n"))
        #expect(excluded.contains("\n//Excluded FindTechnologies : QueryDb<Technology,TechnologyView>\n"))
        #expect(!excluded.contains("public class FindTechnologies"))

        let versioned = dtos(techstacks, "/types/swift?AddImplicitVersion=3&AddResponseStatus=true&IncludeTypes=GetTechnology.*").text
        #expect(versioned.contains("""
            public typealias Return = GetTechnologyResponse

            public var version:Int = 3
            public var slug:String?

        """))
        // A response that declares its ResponseStatus keeps its own; one without gets it last.
        #expect(versioned.components(separatedBy: "public var responseStatus:ResponseStatus?").count == 2)
        let config = dtos(techstacks, "/types/swift?AddResponseStatus=true&IncludeTypes=GetConfig.*").text
        #expect(config.contains("""
            public var allFlagTypes:[Option] = []
            public var responseStatus:ResponseStatus?

            required public init(){}
        """))

        let based = dtos(techstacks, "/types/swift?BaseClass=NSObject&TreatTypesAsStrings=TechnologyTier&IncludeTypes=TechnologyInfo").text
        #expect(based.contains("""
        public class TechnologyInfo : NSObject, Codable
        {
            public var tier:String?
        """))
        #expect(based.contains("    required public override init(){ super.init() }"))
        // Only names go where code is written.
        let hostile = dtos(techstacks, "/types/swift?DefaultImports=Foundation,Evil%0Aclass%20X%7B%7D&BaseClass=A%7B%7D&IncludeTypes=TechnologyInfo").text
        #expect(hostile.contains("*/\n\nimport Foundation\n\npublic class TechnologyInfo : Codable\n"))
        // A proxy chain's first host and scheme are the client's.
        let chained = dtos(techstacks, "/types/swift?IncludeTypes=Option", headers: ["Host": "h", "X-Forwarded-Host": "a.example, b.internal", "X-Forwarded-Proto": "https,http"]).text
        #expect(chained.contains("\nBaseUrl: https://a.example\n"))
    }

    /// `serve --fixed-date` (the kind's `typesDate`) and `host.typesDate` date the file, not the clock.
    @Test func aFixedDateDatesTheFile() throws {
        let directory = TestHost.packageRoot.appendingPathComponent("Fixtures/ai")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files["ai/" + name] = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        let kind = ServiceStackAppKind(clock: { TestHost.fixedNow }, typesDate: DateTimeValue(parsing: "2024-10-21T14:05:14Z"))
        let app = try AppLoader(kinds: [kind]).load(from: InMemoryFixtureSource(files: files))[0] as! ServiceStackApp
        #expect(dtos(app).text.hasPrefix("/* Options:\nDate: 2024-10-21 14:05:14\n"))
        files["ai/app.json"] = files["ai/app.json"]!.replacingOccurrences(of: #""debugMode": false,"#, with: #""debugMode": false, "typesDate": "2020-01-02T03:04:05Z","#)
        let hosted = try AppLoader(kinds: [ServiceStackAppKind(clock: { TestHost.fixedNow })]).load(from: InMemoryFixtureSource(files: files))[0] as! ServiceStackApp
        #expect(dtos(hosted).text.hasPrefix("/* Options:\nDate: 2020-01-02 03:04:05\n"))
    }
}
