import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The generated DTOs in their real consumers' hands, fetched over loopback from a running
/// server: PyPI's `servicestack` client imports `/types/python` and calls the server with it
/// (Tests/DTOClients/python_client.py), and Debian's `tsc` type-checks `/types/typescript` for
/// the three apps with a program that uses them (Tests/DTOClients/consumer.ts), and the JDK's
/// `javac` compiles `/types/java` with a stand-in for the client library's types
/// (Tests/DTOClients/java) and a program that uses them (Tests/DTOClients/Consumer.java), and Debian's PHP CLI
/// parses `/types/php` (`php -l`). `tsc` also checks `/types/typescript.d` with a program using
/// it (Tests/DTOClients/declarations.ts), and node loads `/types/mjs` and `/types/js` and sends
/// their requests through a stand-in for `@servicestack/client` (Tests/DTOClients/consumer.mjs).
@Suite(.timeLimit(.minutes(3)))
struct DTOClientTests {
    static let clients = packageRoot.appendingPathComponent("Tests/DTOClients")

    /// The interpreter that has `servicestack`: .venv's (Scripts/ensure-python-clients.sh) or MOCKSTACK_PYTHON.
    static let python: String? = [ProcessInfo.processInfo.environment["MOCKSTACK_PYTHON"], packageRoot.appendingPathComponent(".venv/bin/python").path]
        .compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }

    static let tsc = ["/usr/bin/tsc", "/usr/local/bin/tsc"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The JDK's compiler and launcher, side by side.
    static let javac = ["/usr/bin/javac", "/usr/local/bin/javac"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let php = ["/usr/bin/php", "/usr/local/bin/php"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// make test sets these: a missing consumer is then a failure, not a skip.
    static let requiresPython = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_PYTHON_CLIENTS"] == "1"
    static let requiresTsc = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_TSC"] == "1"
    static let requiresJavac = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_JAVAC"] == "1"
    static let requiresPhp = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_PHP"] == "1"
    static let requiresNode = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_NODE"] == "1"

    static func fetch(_ url: URL) async throws -> String {
        let (data, response) = try await URLSession.shared.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode
        guard status == 200 else { throw ConsumerError("\(url): \(status.map(String.init) ?? "no answer")") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `body` with a consumer's path, a server of the three apps and a folder for the
    /// files, removed after. Without the consumer the test is skipped, or fails when make test
    /// requires it (`missing` says how to install it).
    static func withConsumer(
        _ consumer: String?, required: Bool, missing: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (_ consumer: String, _ mock: InProcessMockStack, _ folder: URL) async throws -> Void
    ) async throws {
        guard let consumer else {
            if required { Issue.record(Comment(rawValue: missing), sourceLocation: sourceLocation) }
            return
        }
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["test", "techstacks", "ai"]))
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(consumer, mock, folder)
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockstack-dtos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every process a test starts costs time (and, in Foundation's `Process.run` on Linux, a
    /// rare crash): one server for the three apps, one interpreter for the three calls.
    @Test func pythonClientCallsTheServerWithTheGeneratedDTOs() async throws {
        try await Self.withConsumer(Self.python, required: Self.requiresPython, missing: "PyPI's servicestack client is missing: run Scripts/ensure-python-clients.sh (make test does)") { python, mock, folder in
            var arguments = [Self.clients.appendingPathComponent("python_client.py").path]
            for app in ["test", "techstacks", "ai"] {
                let base = try mock.url(for: app)
                let file = folder.appendingPathComponent("\(app)_dtos.py")
                try await Self.fetch(base.appendingPathComponent("types/python")).write(to: file, atomically: true, encoding: .utf8)
                arguments += [app, file.path, base.absoluteString]
            }
            let run = try await Self.run(python, arguments)
            if !Self.requiresPython, run.stderr.contains("No module named 'servicestack'") { return }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.split(separator: "\n").map(String.init) == [
                #"{"get": "Hello, World!", "post": "Hello, Python!", "type": "HelloResponse"}"#,
                #"{"found": ["ServiceStack"], "technology": "ServiceStack", "tier": "Server", "type": "TechnologyView"}"#,
                #"{"content": "The capital of France is Paris.", "type": "OpenAiChatResponse"}"#,
            ])
        }
    }

    @Test func tscTypeChecksTheGeneratedTypeScript() async throws {
        try await Self.withConsumer(Self.tsc, required: Self.requiresTsc, missing: "tsc is missing: apt-get install node-typescript (make test does)") { tsc, mock, folder in
            for app in ["test", "techstacks", "ai"] {
                let text = try await Self.fetch(try mock.url(for: app).appendingPathComponent("types/typescript"))
                // The file turns type checking off for itself, as today's generator writes it; the
                // check is of the declarations, so tsc reads them without that line.
                #expect(text.contains("\n*/\n\n// @ts-nocheck\n\nexport interface IReturn<T>\n"), "\(app): no // @ts-nocheck before the types")
                let checked = text.replacingOccurrences(of: "\n// @ts-nocheck\n", with: "\n")
                try checked.write(to: folder.appendingPathComponent("\(app).dtos.ts"), atomically: true, encoding: .utf8)
            }
            let consumer = folder.appendingPathComponent("consumer.ts")
            try FileManager.default.copyItem(at: Self.clients.appendingPathComponent("consumer.ts"), to: consumer)
            let run = try await Self.run(tsc, ["--noEmit", "--target", "es2017", "--module", "commonjs", "--lib", "es2017,dom", consumer.path])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.isEmpty && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
        }
    }

    /// `test`'s declarations global, techstacks' and ai's each in a `GlobalNamespace`, as a
    /// program that references all three needs them.
    @Test func tscTypeChecksTheGeneratedDeclarations() async throws {
        try await Self.withConsumer(Self.tsc, required: Self.requiresTsc, missing: "tsc is missing: apt-get install node-typescript (make test does)") { tsc, mock, folder in
            for (app, query) in [("test", ""), ("techstacks", "?GlobalNamespace=TechStacks"), ("ai", "?GlobalNamespace=AI")] {
                let url = URL(string: try mock.url(for: app).appendingPathComponent("types/typescript.d").absoluteString + query)!
                let text = try await Self.fetch(url)
                #expect(text.contains("// @ts-nocheck\n"), "\(app): no // @ts-nocheck")
                // As for the classes: the check is of the declarations.
                let checked = text.replacingOccurrences(of: "// @ts-nocheck\n", with: "\n")
                try checked.write(to: folder.appendingPathComponent("\(app).dtos.d.ts"), atomically: true, encoding: .utf8)
            }
            let consumer = folder.appendingPathComponent("declarations.ts")
            try FileManager.default.copyItem(at: Self.clients.appendingPathComponent("declarations.ts"), to: consumer)
            let run = try await Self.run(tsc, ["--noEmit", "--strict", "--target", "es2017", "--lib", "es2017,dom", consumer.path])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.isEmpty && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
        }
    }

    /// node loads each app's `/types/mjs` (`import`) and `/types/js` (`require`), and sends the
    /// app's requests through `@servicestack/client`, a stand-in (Tests/DTOClients/javascript)
    /// in the folder's `node_modules`, as an installed package would be found.
    @Test(arguments: ["mjs", "js"]) func nodeSendsRequestsMadeWithTheGeneratedJavaScript(kind: String) async throws {
        try await Self.withConsumer(Self.node, required: Self.requiresNode, missing: "node is missing: apt-get install nodejs (make test does)") { node, mock, folder in
            let package = folder.appendingPathComponent("node_modules/@servicestack")
            try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.clients.appendingPathComponent("javascript"), to: package.appendingPathComponent("client"))
            let consumer = folder.appendingPathComponent("consumer.mjs")
            try FileManager.default.copyItem(at: Self.clients.appendingPathComponent("consumer.mjs"), to: consumer)
            var arguments = [consumer.path, kind]
            for app in ["test", "techstacks", "ai"] {
                let base = try mock.url(for: app)
                let file = folder.appendingPathComponent("\(app).dtos.\(kind)")
                try await Self.fetch(base.appendingPathComponent("types/\(kind)")).write(to: file, atomically: true, encoding: .utf8)
                arguments += [app, file.path, base.absoluteString]
            }
            let run = try await Self.run(node, arguments)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.split(separator: "\n").map(String.init) == [
                #"{"get":"Hello, World!","post":"Hello, JavaScript!","type":"HelloResponse"}"#,
                #"{"found":["ServiceStack"],"method":"GET","technology":"ServiceStack","server":true,"tier":"Server","type":"QueryResponse"}"#,
                #"{"content":"The capital of France is Paris.","type":"OpenAiChatResponse"}"#,
            ])
        }
    }

    /// Each app's file in a package of its own (`?Package=test`), compiled together with the
    /// consumer, which then runs and prints what the client would read.
    @Test func javacCompilesTheGeneratedJavaAndAProgramUsesIt() async throws {
        try await Self.withConsumer(Self.javac, required: Self.requiresJavac, missing: "javac is missing: apt-get install default-jdk-headless (make test does)") { javac, mock, folder in
            var sources: [String] = []
            for app in ["test", "techstacks", "ai"] {
                var components = URLComponents(url: try mock.url(for: app).appendingPathComponent("types/java"), resolvingAgainstBaseURL: false)!
                components.queryItems = [URLQueryItem(name: "Package", value: app)]
                let text = try await Self.fetch(components.url!)
                #expect(text.contains("\npackage \(app);\n\nimport java.math.*;\n"), "\(app): no package line")
                let file = folder.appendingPathComponent("\(app)/dtos.java")
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
                sources.append(file.path)
            }
            let library = Self.clients.appendingPathComponent("java")
            let stubs = FileManager.default.enumerator(atPath: library.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".java") }
                .map { library.appendingPathComponent($0).path } ?? []
            let classes = folder.appendingPathComponent("classes").path
            let compile = try await Self.run(javac, ["-d", classes] + stubs + sources + [Self.clients.appendingPathComponent("Consumer.java").path])
            #expect(compile.status == 0, "\(compile.stdout)\(compile.stderr)")
            guard compile.status == 0 else { return }
            let java = URL(fileURLWithPath: javac).deletingLastPathComponent().appendingPathComponent("java").path
            let run = try await Self.run(java, ["-cp", classes, "Consumer"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.split(separator: "\n").map(String.init) == [
                "Hello World returns HelloResponse",
                "QueryItems returns QueryResponse<Poco>",
                "AllTypes.Int is int",
                "GetTechnology servicestack returns GetTechnologyResponse",
                "FindTechnologies returns QueryResponse<TechnologyView>",
                "OpenAiChatCompletion gpt-4 returns OpenAiChatResponse",
                "OpenAiChat.maxTokens is max_tokens",
            ])
        }
    }

    /// `php -l` finds no syntax error in each app's file, nor in the options that change its
    /// shape (no namespace, optional members, response status, implicit version, return markers).
    @Test func phpParsesTheGeneratedPHP() async throws {
        try await Self.withConsumer(Self.php, required: Self.requiresPhp, missing: "php is missing: apt-get install php-cli (make test does)") { php, mock, folder in
            let variants = [
                ("test", ""), ("techstacks", ""), ("ai", ""),
                ("test", "?GlobalNamespace=&MakePropertiesOptional=True&AddResponseStatus=True&AddImplicitVersion=2&AddReturnMarker=True"),
            ]
            for (index, (app, query)) in variants.enumerated() {
                let url = URL(string: try mock.url(for: app).appendingPathComponent("types/php").absoluteString + query)!
                let file = folder.appendingPathComponent("\(index).\(app).dtos.php")
                try await Self.fetch(url).write(to: file, atomically: true, encoding: .utf8)
                let run = try await Self.run(php, ["-l", file.path])
                #expect(run.status == 0, "\(app)\(query): \(run.stdout)\(run.stderr)")
                #expect(run.stdout.hasPrefix("No syntax errors detected in "), "\(app)\(query): \(run.stdout)")
            }
        }
    }

    /// A program run to its end, off the test runner's cooperative threads, one at a time.
    static func run(_ executable: String, _ arguments: [String]) async throws -> ProcessRun {
        try await withCheckedThrowingContinuation { continuation in
            programs.async {
                continuation.resume(with: Result { try ProcessRun.run(URL(fileURLWithPath: executable), arguments) })
            }
        }
    }

    private static let programs = DispatchQueue(label: "DTOClientTests.programs")

    struct ConsumerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
