import Foundation
import MockStackCore
import MockStackSpawn
import Testing
@testable import MockStackServiceStack

/// The generated DTOs decode the apps' own responses: for each shipped app, its whole
/// `/types/swift` file is compiled with the package shim (Tests/SwiftShim) and a small program
/// that decodes real answers with a JSONDecoder set up as the ServiceStack Swift client sets
/// up its own, then prints one field of each; the printed values must be the JSON's.
@Suite struct SwiftRoundTripTests {
    /// Types whose Swift, as ServiceStack writes it, does not compile, left out as the real
    /// hosts' own client files leave them out (Test.dtos.swift's ExcludeTypes): `MessageQuery :
    /// QueryDb<MessageQuery>` inherits from itself.
    static let uncompilable = ["test": "MessageQuery"]

    /// A request to an app, the Swift type its answer decodes into, and a field to print.
    struct Case: Sendable {
        var file: String
        var method: HTTPMethod = .get
        var target: String
        var upload = false
        var type: String
        /// A Swift expression over `value`.
        var expression: String
        /// The JSON field the expression must print (a path of keys and indices).
        var expected: [String]
    }

    static let cases: [String: [Case]] = [
        "test": [
            Case(file: "hello", target: "/hello/World", type: "HelloResponse", expression: "value.result", expected: ["result"]),
            Case(file: "items", target: "/api/GetItems", type: "Items", expression: "value.results.first?.name", expected: ["results", "0", "name"]),
            Case(file: "alt-query-items", target: "/api/AltQueryItems?name=item", type: "QueryResponse<Item>",
                 expression: "value.results.count", expected: ["results", "#"]),
            Case(file: "speech", method: .post, target: "/api/SpeechToText", upload: true, type: "TextGenerationResponse",
                 expression: "value.results?.first?.text", expected: ["results", "0", "text"]),
        ],
        "ai": [
            Case(file: "speech", method: .post, target: "/api/SpeechToText", upload: true, type: "TextGenerationResponse",
                 expression: "value.textOutputs?.last?.text", expected: ["textOutputs", "1", "text"]),
        ],
        "techstacks": [
            Case(file: "app-overview", target: "/api/AppOverview", type: "AppOverviewResponse",
                 expression: "value.topTechnologies.last?.name", expected: ["topTechnologies", "-1", "name"]),
            Case(file: "overview", target: "/api/Overview", type: "OverviewResponse",
                 expression: "value.latestTechStacks.first?.technologyChoices.first?.name", expected: ["latestTechStacks", "0", "technologyChoices", "0", "name"]),
            Case(file: "technology", target: "/technology/servicestack", type: "GetTechnologyResponse",
                 expression: "value.technology?.lastModified.map { Int($0.timeIntervalSince1970) }", expected: ["technology", "lastModified", "epoch"]),
            Case(file: "find-technologies", target: "/api/FindTechnologies?VendorName=Google&OrderBy=Id", type: "QueryResponse<TechnologyView>",
                 expression: "value.results.first?.tier?.rawValue", expected: ["results", "0", "tier"]),
            Case(file: "config", target: "/api/GetConfig", type: "GetConfigResponse", expression: "value.allTiers.last?.title", expected: ["allTiers", "-1", "title"]),
            Case(file: "stack", target: "/techstacks/techstacks-website", type: "GetTechnologyStackResponse",
                 expression: "value.result?.technologyChoices.count", expected: ["result", "technologyChoices", "#"]),
            Case(file: "posts", target: "/api/QueryPosts?types=Showcase", type: "QueryResponse<Post>",
                 expression: "value.results.first?.type?.rawValue", expected: ["results", "0", "type"]),
            Case(file: "all-technologies", target: "/api/GetAllTechnologies", type: "GetAllTechnologiesResponse",
                 expression: "value.results.first?.Description", expected: ["results", "0", "description"]),
        ],
    ]

    @Test(.timeLimit(.minutes(10)), arguments: ["test", "ai", "techstacks"]) func responsesDecodeIntoTheGeneratedTypes(app name: String) async throws {
        let compiler = try #require(Self.swiftc, "swiftc not found")
        let app = try TestHost.load(name)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let cases = Self.cases[name]!
        var expected: [String] = []
        var program = "import Foundation\nlet folder = URL(fileURLWithPath: CommandLine.arguments[1])\n" + Self.programHelpers
        for (index, check) in cases.enumerated() {
            let response = Self.answer(check, app: app)
            try #require(response.status == 200, "\(name) \(check.target): \(response.status) \(response.text)")
            try Data(response.body).write(to: directory.appendingPathComponent("\(check.file).json"))
            let json = try JSONParser().parse(response.body).root
            expected.append("\(check.file): \(try Self.field(check.expected, in: json))")
            program += "do { let value = decode(\(check.type).self, \"\(check.file)\"); print(\"\(check.file): \\(show(\(check.expression)))\") } // \(index)\n"
        }
        let dtos = TestHost.call(.get, "/types/swift" + (Self.uncompilable[name].map { "?ExcludeTypes=" + $0 } ?? ""),
                                 headers: ["Host": "127.0.0.1:8080"], app: app).text
            .replacingOccurrences(of: "import ServiceStack\n", with: "")
        try dtos.write(to: directory.appendingPathComponent("dtos.swift"), atomically: true, encoding: .utf8)
        try program.write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let shim = TestHost.packageRoot.appendingPathComponent("Tests/SwiftShim")
        let binary = directory.appendingPathComponent("roundtrip").path
        let build = try await Self.run(compiler, ["-Onone", "-o", binary, shim.appendingPathComponent("ServiceStackShim.swift").path,
                                            shim.appendingPathComponent("ClientDecoder.swift").path,
                                            directory.appendingPathComponent("dtos.swift").path, directory.appendingPathComponent("main.swift").path])
        try #require(build.status == 0, "\(name): \(build.output.prefix(3000))")
        let run = try await Self.run(binary, [directory.path])
        #expect(run.status == 0, "\(name): \(run.output.prefix(2000))")
        #expect(run.output.split(separator: "\n").map(String.init) == expected)
    }

    /// Decoding and printing, with optionals unwrapped so `Optional(…)` never shows.
    static let programHelpers = #"""
    func decode<T: Decodable>(_ type: T.Type, _ name: String) -> T {
        let data = try! Data(contentsOf: folder.appendingPathComponent(name + ".json"))
        do { return try clientDecoder().decode(T.self, from: data) } catch {
            print("\(name): cannot decode \(T.self): \(error)")
            exit(1)
        }
    }
    func show(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { show($0.value) } ?? "nil" }
        return "\(value)"
    }

    """#

    private static func answer(_ check: Case, app: ServiceStackApp) -> HTTPResponse {
        guard check.upload else { return TestHost.call(check.method, check.target, app: app) }
        var (headers, body) = multipart(fields: [("tag", "ztag"), ("refId", "zid")], files: [("audio", "test.txt", "text/plain", "Hello World")])
        // AI Server's API key; the test persona takes uploads anonymously.
        if app.name == "ai" { headers.set("Authorization", "Bearer ak-mockstack") }
        return TestHost.call(check.method, check.target, body: body, headers: headers, app: app)
    }

    /// The value at a path: keys, indices (`-1` the last), `#` an array's count, `epoch` an
    /// ISO date's Unix time.
    private static func field(_ path: [String], in json: JSONValue) throws -> String {
        var value = json
        for step in path {
            switch step {
            case "#": return String(value.arrayValue?.count ?? -1)
            case "epoch":
                let text = try #require(value.stringValue)
                return String(Int(try #require(clientDate(text)).timeIntervalSince1970))
            default:
                if let index = Int(step), let items = value.arrayValue {
                    value = try #require(index < 0 ? items.last : items[index])
                } else {
                    value = value[step] ?? .null
                }
            }
        }
        switch value {
        case .string(let text): return text
        case .number(let number): return number.literal
        case .null: return "nil"
        default: return value.jsonText
        }
    }

    /// The test's own copy of the client's date reading (ISO 8601 with or without zone).
    private static func clientDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        let zoned = text.hasSuffix("Z") ? text : text + "Z"
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: zoned) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: zoned)
    }

    static let swiftc = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? ProcessInfo.processInfo.environment["SWIFTC"]

    /// Runs a program to its end and returns its status and output, one program at a time, on
    /// a queue of its own and at the lowest CPU priority (`nice -n 19`, where there is one): a
    /// compiler run takes a core for tens of seconds, and on a 2-core machine several at once —
    /// or their waits blocking the test runner's cooperative threads — pushed the other tests
    /// (servers answering over sockets) past their time limits.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            programs.async {
                continuation.resume(with: Result { try runBlocking(executable, arguments) })
            }
        }
    }

    private static let programs = DispatchQueue(label: "SwiftRoundTripTests.programs")

    private static func runBlocking(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let nice = "/usr/bin/nice"
        let (program, all) = FileManager.default.isExecutableFile(atPath: nice)
            ? (nice, ["-n", "19", executable] + arguments) : (executable, arguments)
        let (termination, output, _) = try ChildProcess.run(program, all, errors: .standardOutput)
        return (termination.status, String(decoding: output, as: UTF8.self))
    }
}
