import Foundation
import MockStackCore
import MockStackSpawn
import Testing
import TestSupport

/// Runs the built `mockstack` binary: its stdout, stderr and exit status.
@Suite(.timeLimit(.minutes(3)))
struct CLITests {
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["MOCKSTACK_BIN"] { return URL(fileURLWithPath: path) }
        return packageRoot.appendingPathComponent(".build/debug/mockstack")
    }

    /// Runs `mockstack` (or another program) to the end.
    static func run(_ arguments: [String], executable: URL = binary, environment: [String: String] = [:]) throws -> ProcessRun {
        try ProcessRun.run(executable, arguments, environment: environment)
    }

    /// Starts `serve`, returns the process, its ready line and its stderr.
    static func serve(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> (ChildProcess, String, ChildPipe) {
        try launch(binary, ["serve"] + arguments, environment: environment)
    }

    /// Starts a program that serves (mockstack, or a shell that execs it), returns the process,
    /// the first line it printed (the ready line, with its newline; what came before its output
    /// ended, if it exited first) and its stderr.
    static func launch(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> (ChildProcess, String, ChildPipe) {
        let process = try ProcessRun.start(executable, arguments, environment: environment)
        let line = switch process.standardOutput.readLine() {
        case .line(let line): line + "\n"
        case .ended(let partial): partial
        case .timedOut: ""
        }
        return (process, line, try #require(process.standardError))
    }

    @Test func theFirstStdoutLineIsTheReadyEvent() throws {
        let readyFile = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: readyFile) }
        let (process, line, _) = try Self.serve(["--ready-file", readyFile.path, "--log-level", "warning"])
        defer { process.stop() }
        let json = try JSONParser().parse(line).root
        let port = try #require(json["port"]?.intValue)
        #expect(json.objectValue?.keys == ["event", "host", "port", "url", "apps", "exposed", "pid", "version", "adminTokenRequired"])
        #expect(json["adminTokenRequired"] == false)
        #expect(json["event"] == "listening")
        #expect(json["host"] == "127.0.0.1")
        #expect(port > 0)
        #expect(json["url"]?.stringValue == "http://127.0.0.1:\(port)")
        #expect(json["apps"] == ["ai": "/ai", "example": "/example", "feathers": "/feathers", "feathers-v4": "/feathers-v4", "techstacks": "/techstacks", "test": "/test"])
        #expect(json["pid"]?.intValue == Int(process.pid))
        #expect(line.hasSuffix("}\n"))
        #expect(try String(contentsOf: readyFile, encoding: .utf8) == line)
        #expect(try rawExchange(port: port, "GET /__mockstack/health HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
    }

    @Test func appsLoadsOnlyTheNamedFolders() throws {
        let (process, line, _) = try Self.serve(["--apps", "example, test", "--log-level", "warning"])
        defer { process.stop() }
        #expect(try JSONParser().parse(line).root["apps"] == ["example": "/example", "test": "/test"])
        let unknown = try Self.run(["serve", "--apps", "example,nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("no app folder named 'nope' (there are: ai, example, feathers, feathers-v4, techstacks, test)"))
    }

    @Test func codegenPrintsTheSwiftFileOffline() throws {
        let result = try Self.run(["codegen", "swift", "--app", "techstacks", "--option", "IncludeTypes=GetTechnology.*", "--base-url", "https://techstacks.io",
                                   "--fixed-date", "2024-10-21T14:05:14Z"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("/* Options:\nDate: 2024-10-21 14:05:14\n"))
        #expect(result.stdout.contains("\nSwiftVersion: 5.0\n"))
        #expect(result.stdout.contains("\nBaseUrl: https://techstacks.io\n\n//BaseClass: \n"))
        #expect(result.stdout.contains("\nIncludeTypes: GetTechnology.*\n"))
        #expect(result.stdout.contains("// @Route(\"/technology/{Slug}\")\npublic class GetTechnology : IReturn, IRegisterStats, IGet, Codable\n"))
        let unknown = try Self.run(["codegen", "swift", "--app", "example"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("app 'example' is not a ServiceStack app"))
        #expect(try Self.run(["codegen", "cobol", "--app", "test"]).status == 2)
        // A language's short name, as its files are named.
        let kotlin = try Self.run(["codegen", "kt", "--app", "techstacks", "--option", "IncludeTypes=GetTechnology"])
        #expect(kotlin.status == 0)
        #expect(kotlin.stdout.contains("\nopen class GetTechnology : IReturn<GetTechnologyResponse>, IRegisterStats, IGet\n{\n"))
    }

    @Test func codegenPrintsThePythonAndTypeScriptFilesOffline() throws {
        let python = try Self.run(["codegen", "python", "--app", "techstacks", "--option", "IncludeTypes=GetTechnology.*", "--base-url", "https://techstacks.io",
                                   "--fixed-date", "2024-10-21T14:05:14Z"])
        #expect(python.status == 0)
        #expect(python.stdout.hasPrefix("\"\"\" Options:\nDate: 2024-10-21 14:05:14\nVersion: 8.41\n"))
        #expect(python.stdout.contains("\nBaseUrl: https://techstacks.io\n\n#GlobalNamespace: \n"))
        #expect(python.stdout.contains("\nIncludeTypes: GetTechnology.*\n"))
        #expect(python.stdout.contains("# @Route(\"/technology/{Slug}\")\n@dataclass_json(letter_case=LetterCase.CAMEL, undefined=Undefined.EXCLUDE)\n@dataclass\nclass GetTechnology(IReturn[GetTechnologyResponse], IRegisterStats, IGet):\n    slug: Optional[str] = None\n"))
        let typeScript = try Self.run(["codegen", "ts", "--app", "techstacks", "--option", "IncludeTypes=GetTechnology.*", "--fixed-date", "2024-10-21T14:05:14Z"])
        #expect(typeScript.status == 0)
        #expect(typeScript.stdout.hasPrefix("/* Options:\nDate: 2024-10-21 14:05:14\nVersion: 10.09\n"))
        #expect(typeScript.stdout.contains("\nBaseUrl: http://127.0.0.1:8080/techstacks\n\n//GlobalNamespace: \n//MakePropertiesOptional: False\n"))
        #expect(typeScript.stdout.contains("// @Route(\"/technology/{Slug}\")\nexport class GetTechnology implements IReturn<GetTechnologyResponse>, IRegisterStats, IGet\n"))
        // The same file the server serves for the same query.
        #expect(try Self.run(["codegen", "typescript", "--app", "techstacks", "--option", "IncludeTypes=GetTechnology.*", "--fixed-date", "2024-10-21T14:05:14Z"]).stdout == typeScript.stdout)
    }

    @Test func codegenNamesWhatThereIsForATypo() throws {
        let language = try Self.run(["codegen", "pyhton", "--app", "test"])
        #expect(language.status == 2)
        #expect(language.stdout.isEmpty)
        #expect(language.stderr == "mockstack: unknown language 'pyhton': did you mean 'python'? (see 'mockstack codegen --help')\n")
        let typeScript = try Self.run(["codegen", "typescrpt", "--app", "test"])
        #expect(typeScript.status == 2)
        #expect(typeScript.stderr == "mockstack: unknown language 'typescrpt': did you mean 'typescript'? (see 'mockstack codegen --help')\n")
        let cobol = try Self.run(["codegen", "cobol", "--app", "test"])
        #expect(cobol.stderr == "mockstack: unknown language 'cobol': the languages are swift, python, typescript, typescript.d, mjs, js, java, kotlin, dart, csharp, fsharp, vbnet, php (see 'mockstack codegen --help')\n")
        // Every two-letter name is two edits from `go`: none is offered, the list is.
        let go = try Self.run(["codegen", "go", "--app", "test"])
        #expect(go.stderr == "mockstack: unknown language 'go': the languages are swift, python, typescript, typescript.d, mjs, js, java, kotlin, dart, csharp, fsharp, vbnet, php (see 'mockstack codegen --help')\n")
        let oneTypo = try Self.run(["codegen", "jx", "--app", "test"])
        #expect(oneTypo.stderr == "mockstack: unknown language 'jx': did you mean 'js'? (see 'mockstack codegen --help')\n")
        let app = try Self.run(["codegen", "python", "--app", "tset"])
        #expect(app.status == 2)
        #expect(app.stdout.isEmpty)
        // The loader's one line (as `serve --apps tset` says it), naming the fixtures folder.
        let apps = " (there are: ai, example, feathers, feathers-v4, techstacks, test)\n"
        #expect(app.stderr.hasSuffix("/Fixtures:1:1: no app folder named 'tset': did you mean 'test'?" + apps))
        #expect(app.stderr.split(separator: "\n").count == 1)
        let nowhere = try Self.run(["codegen", "python", "--app", "nowhere"])
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.hasSuffix("/Fixtures:1:1: no app folder named 'nowhere'" + apps))
        #expect(nowhere.stderr.split(separator: "\n").count == 1)
        let served = try Self.run(["serve", "--apps", "tset", "--port", "0"])
        #expect(served.status == 2)
        #expect(served.stderr.hasSuffix("/Fixtures:1:1: no app folder named 'tset': did you mean 'test'?" + apps))
        let feathers = try Self.run(["codegen", "typescript", "--app", "feathers"])
        #expect(feathers.status == 2)
        #expect(feathers.stderr.contains("app 'feathers' is not a ServiceStack app: /types/typescript is generated for ServiceStack apps only"))
        let option = try Self.run(["codegen", "python", "--app", "test", "--option", "BaseClass=NSObject"])
        #expect(option.status == 2)
        let pythonOptions = ["GlobalNamespace", "AddServiceStackTypes", "AddResponseStatus", "AddImplicitVersion", "AddDescriptionAsComments", "IncludeTypes",
                             "ExcludeTypes", "DefaultImports", "DataClass", "DataClassJson", "BaseUrl", "WithoutOptions", "MakePropertiesOptional",
                             "InitializeCollections"]
        #expect(option.stderr == "mockstack: --option BaseClass: not a Python DTO option; the Python DTO options are "
            + pythonOptions.joined(separator: ", ") + "\n")
        #expect(try Self.run(["codegen", "typescript", "--app", "test", "--option", "DataClass=frozen=True"]).status == 2)
    }

    @Test func sigtermFinishesAndExitsZero() throws {
        let (process, line, stderr) = try Self.serve()
        let port = try #require(try JSONParser().parse(line).root["port"]?.intValue)
        #expect(try rawExchange(port: port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        #expect(process.stop() == .exited(0))
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        #expect(log.contains("GET /example/hello 200 26B"))
        #expect(log.contains("mockstack stopped"))
    }

    @Test func aTakenPortExitsTwoWithOneLineAndNoReadyLine() throws {
        let (first, line, _) = try Self.serve()
        defer { first.stop() }
        let port = try #require(try JSONParser().parse(line).root["port"]?.intValue)
        let second = try Self.run(["serve", "--port", String(port)])
        #expect(second.status == 2)
        #expect(second.stdout.isEmpty)
        #expect(second.stderr == "mockstack: cannot listen on 127.0.0.1:\(port): Address already in use\n")
    }

    @Test func anUnwritableReadyFileExitsTwoWithTheReason() throws {
        let result = try Self.run(["serve", "--port", "0", "--log-level", "warning", "--ready-file", "/nonexistent-mockstack-dir/ready.json"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "mockstack: cannot write --ready-file /nonexistent-mockstack-dir/ready.json: No such file or directory\n")
    }

    @Test func environmentVariablesAreFallbacks() throws {
        let (process, line, _) = try Self.serve([], environment: ["MOCKSTACK_HOST": "127.0.0.2", "MOCKSTACK_FIXTURES": packageRoot.appendingPathComponent("Fixtures").path])
        defer { process.stop() }
        #expect(try JSONParser().parse(line).root["host"] == "127.0.0.2")
    }

    @Test func offLoopbackTheControlPlaneTokenIsMadeAndShownAtStartUp() throws {
        let (process, line, stderr) = try Self.serve(["--host", "0.0.0.0", "--apps", "example", "--log-level", "error"],
                                                     environment: ["MOCKSTACK_ADMIN_TOKEN": ""])
        let json = try JSONParser().parse(line).root
        let port = try #require(json["port"]?.intValue)
        #expect(json["adminTokenRequired"] == true)
        #expect(try rawExchange(port: port, "GET /__mockstack/apps HTTP/1.1\r\nHost: t\r\n\r\n").status == 401)
        process.stop()
        // Shown even at --log-level error: it is the only way in.
        let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
        let token = try #require(log.firstMatch(of: #/bound to 0\.0\.0\.0, not loopback: the control plane requires an admin token, and none was given, so this one was made: ([0-9a-f]{32}) /#)?.1)
        #expect(log.contains("the control page is http://127.0.0.1:\(port)/__mockstack/#token=\(token);"))
    }

    @Test func theAdminTokenComesFromTheEnvironmentOrTheFlag() throws {
        for (arguments, environment) in [(["--admin-token", "from-flag"], [String: String]()), ([], ["MOCKSTACK_ADMIN_TOKEN": "from-flag"])] {
            let (process, line, stderr) = try Self.serve(["--apps", "example"] + arguments, environment: environment)
            let port = try #require(try JSONParser().parse(line).root["port"]?.intValue)
            #expect(try rawExchange(port: port, "GET /__mockstack/apps HTTP/1.1\r\nHost: t\r\n\r\n").status == 401)
            #expect(try rawExchange(port: port, "GET /__mockstack/apps HTTP/1.1\r\nHost: t\r\nX-MockStack-Admin-Token: from-flag\r\n\r\n").status == 200)
            process.stop()
            let log = String(decoding: stderr.readToEnd(), as: UTF8.self)
            #expect(log.contains("the control plane (http://127.0.0.1:\(port)/__mockstack/) requires the admin token given with --admin-token or MOCKSTACK_ADMIN_TOKEN"))
            #expect(!log.contains("from-flag"), "the token itself is not logged")
        }
    }

    @Test func validateReportsPositions() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles(["demo/app.json": "{\n  \"kind\": \"static\",\n  \"routes\": [ { \"path\": \"/x\", \"fixture\": \"nope.json\" } ]\n}\n"], under: root)
        let result = try Self.run(["validate", root.path])
        #expect(result.status == 1)
        #expect(result.stdout == "\(root.path)/demo/app.json:3:42: /routes/0/fixture: no file 'nope.json' in \(root.path)/demo\n")
        #expect(result.stderr == "1 problem(s) in \(root.path)\n")
        let shipped = try Self.run(["validate", packageRoot.appendingPathComponent("Fixtures").path])
        #expect(shipped.status == 0)
        #expect(shipped.stdout.hasPrefix("ok: 6 app(s) (ai, example, feathers, feathers-v4, techstacks, test), "))
    }

    /// A user's apps beside the shipped ones, without copying them: `--fixtures` repeated (or
    /// `MOCKSTACK_FIXTURES` with `:`), a later folder's app folder replacing an earlier one's.
    @Test func fixtureFoldersAreLayeredTheLaterWinning() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles([
            "example/app.json": #"{"kind":"static","routes":[{"path":"/mine","fixture":"reply.json"}]}"#,
            "example/reply.json": #"{"from":"mine"}"#,
            "mine/app.json": #"{"kind":"static","routes":[{"path":"/hello","fixture":"reply.json"}]}"#,
            "mine/reply.json": #"{"app":"mine"}"#,
        ], under: root)
        let everyApp: JSONValue = ["ai": "/ai", "example": "/example", "feathers": "/feathers", "feathers-v4": "/feathers-v4", "mine": "/mine", "techstacks": "/techstacks", "test": "/test"]
        let ways: [(arguments: [String], environment: [String: String])] = [
            (["--fixtures", "shipped", "--fixtures", root.path], [:]),
            ([], ["MOCKSTACK_FIXTURES": "shipped:" + root.path]),
        ]
        for (arguments, environment) in ways {
            let (process, line, _) = try Self.serve(arguments + ["--log-level", "warning"], environment: environment)
            defer { process.stop() }
            let json = try JSONParser().parse(line).root
            #expect(json["apps"] == everyApp, "\(arguments) \(environment)")
            let port = try #require(json["port"]?.intValue)
            let mine = try rawExchange(port: port, "GET /example/mine HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(mine.status == 200)
            #expect(mine.body == Array(#"{"from":"mine"}"#.utf8))
            // The shipped example app is replaced whole: its routes are gone.
            #expect(try rawExchange(port: port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n").status == 404)
            #expect(try rawExchange(port: port, "GET /test/api/Hello?name=Layers HTTP/1.1\r\nHost: t\r\n\r\n").body == Array(#"{"result":"Hello, Layers!"}"#.utf8))
        }
        let validated = try Self.run(["validate", "shipped", root.path])
        #expect(validated.status == 0)
        #expect(validated.stdout.hasPrefix("ok: 7 app(s) (ai, example, feathers, feathers-v4, mine, techstacks, test), "))
        let routes = try Self.run(["routes", root.path, "shipped"])
        #expect(routes.stdout.contains("\nexample      /example      hello.json                           GET                    /example/hello\n"))
        #expect(routes.stdout.contains("\nmine         /mine         reply.json                           GET                    /mine/hello\n"))
        let missing = try Self.run(["serve", "--fixtures", "shipped", "--fixtures", "/nonexistent-mine"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "mockstack: --fixtures /nonexistent-mine: no such folder\n")
    }

    /// A Feathers app's `compat` takes known switches with true or false, nothing else.
    @Test func validateRefusesUnknownCompatSwitches() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles(["live/app.json": "{\"kind\": \"feathers\", \"services\": {\"people\": {}},\n \"compat\": {\"swiftSockets\": true, \"swiftSocket\": 1}}\n"],
                       under: root)
        let result = try Self.run(["validate", root.path])
        #expect(result.status == 1)
        #expect(result.stdout == """
            \(root.path)/live/app.json:2:29: /compat/swiftSockets: unknown switch "swiftSockets" (switches: swiftSocket)
            \(root.path)/live/app.json:2:50: /compat/swiftSocket: expected true or false, found number

            """)
        try writeFiles(["live/app.json": #"{"kind": "feathers", "services": {"people": {}}, "compat": {"swiftSocket": true}}"#], under: root)
        #expect(try Self.run(["validate", root.path]).status == 0)
    }

    @Test func serveRefusesBrokenFixtures() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles(["demo/app.json": "{\"kind\": \"static\", \"routes\": 3}"], under: root)
        let result = try Self.run(["serve", "--fixtures", root.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("demo/app.json:1:30: /routes: expected an array, found number"))
    }

    /// `serve --stubs DIR` checks the stub files before the ready line, as it does fixtures;
    /// `stubs export` writes a running server's stubs as files that load back.
    /// `serve --https-port`: the CA made at start is written before the ready line, which names
    /// the HTTPS URL, and curl (as a client trusting only that CA) reaches an app and the control plane.
    @Test func httpsServesWithTheCAWrittenBeforeTheReadyLine() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let caFile = root.appendingPathComponent("ca.pem").path
        let (process, line, _) = try Self.serve(["--apps", "test", "--https-port", "0", "--tls-ca-out", caFile, "--tls-name", "mockstack"])
        defer { process.stop() }
        let ready = try JSONParser().parse(line).root
        let https = try #require(ready["httpsUrl"]?.stringValue)
        #expect(https == "https://127.0.0.1:\(try #require(ready["httpsPort"]?.intValue))")
        let authority = try String(contentsOfFile: caFile, encoding: .utf8)
        #expect(authority.hasPrefix("-----BEGIN CERTIFICATE-----\n") && authority.hasSuffix("-----END CERTIFICATE-----\n"))
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        try #require(FileManager.default.isExecutableFile(atPath: curl.path), "curl is missing: make test installs it")
        let hello = try ProcessRun.run(curl, ["-sS", "--cacert", caFile, https + "/test/api/Hello?name=TLS"])
        #expect(hello.stdout == #"{"result":"Hello, TLS!"}"#, "\(hello.stderr)")
        let served = try ProcessRun.run(curl, ["-sS", "--cacert", caFile, https + "/__mockstack/tls/ca.pem"])
        #expect(served.stdout == authority)
        // The extra name is in the certificate: curl reaches it under that name.
        let port = try #require(ready["httpsPort"]?.intValue)
        let named = try ProcessRun.run(
            curl, ["-sS", "--cacert", caFile, "--resolve", "mockstack:\(port):127.0.0.1", "https://mockstack:\(port)/test/api/Hello?name=named"])
        #expect(named.stdout == #"{"result":"Hello, named!"}"#, "\(named.stderr)")
        // Without the CA, the certificate is not trusted.
        #expect(try ProcessRun.run(curl, ["-sS", https + "/test/api/Hello"]).status == 60)
    }

    @Test func stubFilesAreCheckedAtStartAndExportedBack() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles(["stubs/a.json": "[{\"answer\": {\"status\": 200}},\n {\"answer\": {\"status\": 600}}]"], under: root)
        let stubs = root.appendingPathComponent("stubs").path
        let refused = try Self.run(["serve", "--port", "0", "--stubs", stubs])
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(refused.stderr == "\(stubs)/a.json:2:24: /1/answer/status: expected a status from 200 to 599\n")
        try writeFiles(["stubs/a.json": #"{"match": {"path": "/test/api/Hello"}, "answer": {"status": 418}}"#], under: root)
        let (process, line, _) = try Self.serve(["--apps", "test", "--stubs", stubs])
        defer { process.stop() }
        let url = try #require(try JSONParser().parse(line).root["url"]?.stringValue)
        let out = root.appendingPathComponent("out").path
        let exported = try Self.run(["stubs", "export", "--url", url, "--out", out])
        #expect(exported.status == 0 && exported.stdout == "wrote 1 stub to \(out)\n")
        #expect(try String(contentsOfFile: out + "/001-stub-1.json", encoding: .utf8)
            == "{\n  \"match\": {\n    \"path\": \"/test/api/Hello\"\n  },\n  \"answer\": {\n    \"status\": 418\n  }\n}\n")
        let again = try Self.run(["stubs", "export", "--url", url, "--out", out])
        #expect(again.status == 2)
        #expect(again.stderr == "mockstack: \(out) already holds stub files (001-stub-1.json): they would load beside these; pass --replace or choose another folder\n")
        #expect(try Self.run(["stubs", "export", "--url", url, "--out", out, "--replace"]).status == 0)
        // A snapshot of the journal, written as files; the server's stubs stay as they were.
        _ = try Data(contentsOf: URL(string: url + "/test/hello/Cli")!)
        _ = try Data(contentsOf: URL(string: url + "/test/hello/Cli")!)
        let snapshot = root.appendingPathComponent("snapshot").path
        let taken = try Self.run(["stubs", "snapshot", "--url", url, "--out", snapshot, "--match", #"{"path": "/test/hello/Cli"}"#, "--no-scenarios"])
        #expect(taken.status == 0 && taken.stdout == "wrote 1 stub to \(snapshot)\n")
        #expect(try String(contentsOfFile: snapshot + "/001-snapshot.json", encoding: .utf8).contains(#""body": {\#n      "result": "Hello, Cli!"\#n    }"#))
        #expect(try Self.run(["stubs", "export", "--url", url, "--out", out, "--replace"]).stdout == "wrote 1 stub to \(out)\n")
        let badMatch = try Self.run(["stubs", "snapshot", "--url", url, "--out", root.appendingPathComponent("x").path, "--match", "{nope"])
        #expect(badMatch.status == 2 && badMatch.stderr.hasPrefix("mockstack: --match '{nope' is not JSON"))
        let typo = try Self.run(["stubs", "exprot", "--url", url, "--out", out])
        #expect(typo.status == 2 && typo.stderr == "mockstack: unknown action 'exprot': did you mean 'export'? (see 'mockstack stubs --help')\n")
    }

    @Test func routesPrintsTheTable() throws {
        let result = try Self.run(["routes"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("APP          MOUNT         OPERATION                            VERBS                  ROUTE\nai           /ai           AdminData                            ANY                    /ai/api/AdminData\n"))
        #expect(result.stdout.contains("\nai           /ai           OpenAiChatCompletion                 POST                   /ai/v1/chat/completions\n"))
        #expect(result.stdout.contains("\nexample      /example      hello.json                           GET                    /example/hello\n"))
        #expect(result.stdout.contains("\nfeathers     /feathers     people-paginated                     GET,POST,PATCH,DELETE  /feathers/people-paginated\n"))
        #expect(result.stdout.contains("\ntest         /test         Hello                                ANY                    /test/hello/{Name}\n"))
    }

    @Test func healthProbesARunningServer() throws {
        let (process, line, _) = try Self.serve()
        let url = try #require(try JSONParser().parse(line).root["url"]?.stringValue)
        let healthy = try Self.run(["health", "--url", url])
        #expect(healthy.status == 0)
        #expect(healthy.stdout == "healthy\n")
        process.stop()
        let down = try Self.run(["health", "--url", url])
        #expect(down.status == 1)
        #expect(down.stderr.hasPrefix("unhealthy: cannot connect to 127.0.0.1:"))
    }

    /// The release, which is the CHANGELOG's newest, and in a git checkout the commit the binary
    /// was built from, stamped by the BuildStamp plugin (make test builds after every commit).
    @Test func versionIsTheChangelogsNewestReleaseAndTheBuildsCommit() throws {
        let changelog = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true }
        let release = try #require(newest?.dropFirst(3).split(separator: " ").first.map(String.init))
        let git = try Self.run(["git", "-C", packageRoot.path, "rev-parse", "HEAD"], executable: URL(fileURLWithPath: "/usr/bin/env"))
        let expected = git.status == 0 ? "\(release) (\(git.stdout.prefix(7)))" : release

        #expect(release.split(separator: ".").count == 3)
        #expect(try Self.run(["--version"]).stdout == expected + "\n")
    }

    @Test func help() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        for command in ["serve", "validate", "routes", "health"] { #expect(help.stdout.contains(command)) }
        let serveHelp = try Self.run(["serve", "--help"]).stdout
        #expect(try Self.run(["help", "serve"]).stdout == serveHelp)
        #expect(try Self.run(["serve", "--port", "0", "-h"]).stdout == serveHelp)
        #expect(try Self.run([]).stdout == help.stdout)
        for option in ["--host", "--port", "--fixtures", "--ready-file", "--threads", "--expose", "--log-level", "--log-format"] {
            #expect(serveHelp.contains(option))
        }
    }

    /// A mistake on the command line is one line naming it and the help to read, exit 2.
    @Test func badFlagsAreOneLineUsageErrors() throws {
        let range = try Self.run(["serve", "--threads", "0"])
        #expect(range.status == 2)
        #expect(range.stderr == "mockstack: --threads must be between 1 and 64 (see 'mockstack serve --help')\n")
        let unknown = try Self.run(["serve", "--bogus"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr == "mockstack: unknown option '--bogus' (see 'mockstack serve --help')\n")
        let near = try Self.run(["serve", "--prot", "0"])
        #expect(near.status == 2)
        #expect(near.stderr == "mockstack: unknown option '--prot': did you mean '--port'? (see 'mockstack serve --help')\n")
        let command = try Self.run(["srve"])
        #expect(command.status == 2)
        #expect(command.stderr == "mockstack: 'srve' is not a command: did you mean 'serve'? (see 'mockstack --help')\n")
        let typo = try Self.run(["recrod", "--target", "http://127.0.0.1:1"])
        #expect(typo.status == 2)
        #expect(typo.stderr == "mockstack: 'recrod' is not a command: did you mean 'record'? (see 'mockstack --help')\n")
        let nothingNear = try Self.run(["xyz"])
        #expect(nothingNear.stderr
            == "mockstack: 'xyz' is not a command: the commands are serve, record, validate, routes, health, codegen, stubs (see 'mockstack --help')\n")
        let option = try Self.run(["codegen", "swift", "--app", "test", "--option", "Bogus=1"])
        #expect(option.status == 2)
        #expect(option.stdout.isEmpty)
        #expect(option.stderr.hasPrefix("mockstack: --option Bogus: not a Swift DTO option; the Swift DTO options are BaseClass, "))
        #expect(option.stderr.hasSuffix(", BaseUrl, WithoutOptions\n"))
        // One typo or two from an option: that one is named.
        let optionTypo = try Self.run(["codegen", "swift", "--app", "test", "--option", "IncludeTyps=Hello"])
        #expect(optionTypo.status == 2)
        #expect(optionTypo.stderr == "mockstack: --option IncludeTyps: not a Swift DTO option; did you mean 'IncludeTypes'?\n")
        // Option names compare ignoring case, as the server's query does.
        #expect(try Self.run(["codegen", "swift", "--app", "test", "--option", "addresponsestatus=true"]).status == 0)
    }

    /// A fixtures folder that is missing or is a file: one line naming it, exit 2, whichever
    /// command and however it was given.
    @Test func aMissingFixturesFolderIsOneLine() throws {
        let missing = "/nonexistent-mockstack-fixtures"
        let cases: [(arguments: [String], environment: [String: String], line: String)] = [
            (["serve", "--fixtures", missing], [:], "mockstack: --fixtures \(missing): no such folder\n"),
            (["serve"], ["MOCKSTACK_FIXTURES": missing], "mockstack: MOCKSTACK_FIXTURES \(missing): no such folder\n"),
            (["serve", "--fixtures", "/etc/hostname"], [:], "mockstack: --fixtures /etc/hostname: is a file, not a folder\n"),
            (["validate", missing], [:], "mockstack: fixtures folder \(missing): no such folder\n"),
            (["routes", missing], [:], "mockstack: fixtures folder \(missing): no such folder\n"),
            (["codegen", "swift", "--app", "test", "--fixtures", missing], [:], "mockstack: --fixtures \(missing): no such folder\n"),
        ]
        for (arguments, environment, line) in cases {
            let result = try Self.run(arguments, environment: environment)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr == line, "\(arguments)")
        }
    }

    /// A fixture file that cannot be read (here a folder where a file should be) is one line
    /// naming it, with no count after it.
    @Test func anUnreadableFixtureIsOneLine() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles(["demo/app.json": "{\"kind\": \"static\", \"routes\": [ { \"path\": \"/x\", \"fixture\": \"x.json\" } ]}"], under: root)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("demo/x.json"), withIntermediateDirectories: true)
        let result = try Self.run(["serve", "--fixtures", root.path])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.hasPrefix("\(root.path)/demo/app.json:1:"))
        #expect(result.stderr.contains("x.json"))
    }

    /// The ready line's version is what `--version` prints: the release and the build's commit.
    @Test func theReadyLinesVersionIsTheBinarys() throws {
        let version = try Self.run(["--version"]).stdout.trimmingCharacters(in: .newlines)
        let (process, line, _) = try Self.serve(["--apps", "example", "--log-level", "warning"])
        defer { process.stop() }
        #expect(try JSONParser().parse(line).root["version"]?.stringValue == version)
    }

    /// Help is wrapped to 80 columns by whole words: no line runs over, and within a paragraph
    /// no line breaks early (the next line's first word would not have fitted on it), which is
    /// what a hard line break in the source would do.
    @Test func helpWrapsCleanly() throws {
        for command in [[], ["serve"], ["validate"], ["routes"], ["health"], ["codegen"]] {
            let lines = try Self.run(command + ["--help"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) {
                #expect(line.count <= 80, "\(command): \(line)")
                let prose = !line.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ") && !line.hasSuffix(":") && !next.isEmpty
                let nextWord = next.split(separator: " ").first?.count ?? 0
                // Prose lines are filled to 79 columns.
                #expect(!prose || line.count + 1 + nextWord > 79, "\(command): '\(line)' breaks before '\(next)'")
            }
        }
    }

    /// `make install`'s layout: the binary in PREFIX/bin finds the fixtures in
    /// PREFIX/share/mockstack/Fixtures on its own.
    @Test func anInstalledBinaryFindsItsShareFolder() throws {
        let prefix = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let bin = prefix.appendingPathComponent("bin"), share = prefix.appendingPathComponent("share/mockstack/Fixtures")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.binary, to: bin.appendingPathComponent("mockstack"))
        // Only the example app, so the ready line tells this folder from the package's own.
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Fixtures/example"), to: share.appendingPathComponent("example"))
        let (process, line, _) = try Self.launch(bin.appendingPathComponent("mockstack"), ["serve", "--log-level", "warning"])
        defer { process.stop() }
        #expect(try JSONParser().parse(line).root["apps"] == ["example": "/example"])
    }
}
