import Foundation
@testable import mockstack
@testable import MockStackTesting
import MockStackProxy
import MockStackTransport
import Testing
import TestSupport

/// The command line as plain values: each command's options read into the command, mistakes
/// refused with the line the user sees, help describing every option. Nothing is started.
@Suite struct CommandLineTests {
    // MARK: - serve's options

    /// Each option of `serve`, given alone, changes one property of the command and no other;
    /// no two options change the same one, and every property has an option.
    @Test func eachServeOptionSetsAPropertyOfItsOwn() throws {
        let initial = Self.fields(of: Serve())
        var owners: [String: String] = [:]
        for option in Serve.options {
            let words = try Self.sampleWords(for: option)
            let changed = Self.changedFields(from: initial, to: Self.fields(of: try Self.serve(words)))
            #expect(changed.count == 1, "\(words) changed \(changed)")
            for field in changed {
                #expect(owners[field] == nil, "\(words) and --\(owners[field] ?? "") both set \(field)")
                owners[field] = option.name
            }
        }
        #expect(Set(owners.keys) == Set(initial.keys), "properties no option sets: \(Set(initial.keys).subtracting(owners.keys).sorted())")
    }

    /// `--name value` and `--name=value` read alike; a second value replaces the first, except
    /// for a repeatable option, which keeps both in order; a flag given twice is still given.
    @Test func valuesReadTheSameEitherWayAndTheLastWins() throws {
        for option in Serve.options where option.kind != .flag {
            let (first, second) = try #require(Self.samples[option.name], "--\(option.name) has no samples")
            let spaced = Self.fields(of: try Self.serve([option.flagName, first]))
            #expect(spaced == Self.fields(of: try Self.serve([option.flagName + "=" + first])), "--\(option.name)")
            let twice = Self.fields(of: try Self.serve([option.flagName, first, option.flagName + "=" + second]))
            if option.kind == .single {
                #expect(twice == Self.fields(of: try Self.serve([option.flagName, second])), "--\(option.name)")
            } else {
                #expect(twice != Self.fields(of: try Self.serve([option.flagName, second])), "--\(option.name)")
            }
        }
        let serve = try Self.serve(["--watch", "--watch", "--expose", "test=9000", "--expose=example=0", "--fixtures", "shipped", "--fixtures", "./mine"])
        #expect(serve.watch)
        #expect(serve.expose.map(\.commandLineWord) == ["test=9000", "example=0"])
        #expect(serve.fixtures.fixtures == ["shipped", "./mine"])
    }

    /// Every option at once, in declaration order and backwards, reads to the same command; no
    /// option leaves every property at its default.
    @Test func everyOptionAtOnceInAnyOrder() throws {
        let words = try Serve.options.map { try Self.sampleWords(for: $0) }
        let forwards = Self.fields(of: try Self.serve(words.flatMap { $0 }))
        let backwards = Self.fields(of: try Self.serve(words.reversed().flatMap { $0 }))
        #expect(forwards == backwards)
        #expect(Self.changedFields(from: Self.fields(of: Serve()), to: forwards).count == Self.fields(of: Serve()).count)
    }

    /// Values that look like something else: a command's name, `=` inside, a `-` start after `=`.
    @Test func trickyValues() throws {
        #expect(try Self.serve(["--host", "help"]).serverOptions.host == "help")
        #expect(try Self.serve(["--apps", "serve"]).apps == "serve")
        #expect(try Self.serve(["--apps=a=b"]).apps == "a=b")
        #expect(try Self.serve(["--admin-token=-secret"]).adminToken == "-secret")
        #expect(try Self.serve(["--host="]).serverOptions.host == "")
        #expect(try Self.serve(["--port", "0", "--"]).serverOptions.port == 0)
        #expect(try Self.serve(["--seed", "18446744073709551615"]).seed == .max)
    }

    /// Help anywhere before `--` wins over whatever else is on the line.
    @Test(arguments: [["--help"], ["-h"], ["--port", "0", "--help"], ["--bogus", "-h"], ["--threads", "0", "--help"]])
    func helpWins(_ words: [String]) throws {
        guard case .help = try CommandLineParser.parse(words, as: Serve.self) else {
            Issue.record("\(words) did not ask for help")
            return
        }
    }

    /// Mistakes: the line the user reads (before `(see 'mockstack serve --help')`).
    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--prot", "0"], "unknown option '--prot': did you mean '--port'?"),
        (["--Port", "0"], "unknown option '--Port': did you mean '--port'?"),
        (["--fixture", "Fixtures"], "unknown option '--fixture': did you mean '--fixtures'?"),
        (["-p", "0"], "unknown option '-p'"),
        (["--version"], "unknown option '--version'"),
        (["--port"], "missing value for '--port <port>'"),
        (["--port", "--watch"], "missing value for '--port <port>'"),
        (["--fixtures"], "missing value for '--fixtures <folder>'"),
        (["--port", "-1"], "missing value for '--port <port>'"),
        (["--port", "eighty"], "--port 'eighty': expected a whole number"),
        (["--port=0x10"], "--port '0x10': expected a whole number"),
        (["--threads", "1_000"], "--threads '1_000': expected a whole number"),
        (["--seed", "-1"], "missing value for '--seed <seed>'"),
        (["--seed=-1"], "--seed '-1': expected a whole number, 0 or more"),
        (["--log-level", "loud"], "--log-level 'loud': the values are trace, debug, info, notice, warning, error, critical"),
        (["--log-level", "debg"], "--log-level 'debg': did you mean 'debug'?"),
        (["--log-format", "jsn"], "--log-format 'jsn': did you mean 'json'?"),
        (["--expose", "test"], "--expose 'test': expected APP=PORT, a port from 0 to 65535"),
        (["--expose", "=9000"], "--expose '=9000': expected APP=PORT, a port from 0 to 65535"),
        (["--expose", "test=65536"], "--expose 'test=65536': expected APP=PORT, a port from 0 to 65535"),
        (["--port", "eighty", "--port", "80"], "--port 'eighty': expected a whole number"),
        (["--threads", "0"], "--threads must be between 1 and 64"),
        (["--port", "65536"], "the port must be between 0 and 65535"),
        (["--max-header-bytes", "255"], "--max-body-bytes must be positive and --max-header-bytes at least 256"),
        (["--timeout", "0"], "--timeout must be positive"),
        (["--journal-size", "1000001"], "--journal-size must be 0 to 1,000,000 and --journal-body-bytes 0 to 64 MiB"),
        (["--max-sessions", "0"], "--max-sessions must be 1 to 100,000"),
        (["--proxy-timeout", "601"], "--proxy-timeout must be 1 to 600 seconds"),
        (["--proxy-unmatched", "ftp://example.com"], "--proxy-unmatched 'ftp://example.com': the scheme must be http or https, not ftp"),
        (["extra"], "unexpected argument 'extra'"),
        (["--watch", "extra"], "unexpected argument 'extra'"),
        (["--port", "0", "1"], "unexpected argument '1'"),
        (["--", "--port", "0"], "unexpected argument '--port'"),
        (["--", "--help"], "unexpected argument '--help'"),
        (["--watch=true"], "--watch takes no value"),
        (["--https-port", "65536"], "--https-port must be between 0 and 65535"),
        (["--https-port", "0", "--tls-name", "http://mockstack"],
         "--tls-name http://mockstack: expected a host name (mockstack.local) or an IP address"),
        (["--no-load-cache="], "--no-load-cache takes no value"),
    ] as [([String], String)])
    func mistakesAreNamed(_ words: [String], _ message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(words, as: Serve.self) }
    }

    // MARK: - The other commands

    @Test func codegenReadsItsLanguageAndOptions() throws {
        guard case .run(let codegen) = try CommandLineParser.parse(
            ["swift", "--app", "test", "--option", "IncludeTypes=Hello", "--option=BaseClass=X", "--base-url", "http://h/test"],
            as: Codegen.self)
        else { throw UsageError("help") }
        #expect(codegen.language == "swift")
        #expect(codegen.app == "test")
        #expect(codegen.options == ["IncludeTypes=Hello", "BaseClass=X"])
        #expect(codegen.baseUrl == "http://h/test")
        #expect(codegen.fixedDate == nil)
        #expect(throws: UsageError("missing expected argument '--app <app>'")) { try CommandLineParser.parse(["swift"], as: Codegen.self) }
        #expect(throws: UsageError("missing expected argument '<language>'")) { try CommandLineParser.parse(["--app", "test"], as: Codegen.self) }
        #expect(throws: UsageError("unexpected argument 'python'")) {
            try CommandLineParser.parse(["swift", "python", "--app", "test"], as: Codegen.self)
        }
    }

    @Test func foldersAreArgumentsOrOptionsNotBoth() throws {
        guard case .run(let routes) = try CommandLineParser.parse(["a", "b"], as: Routes.self) else { throw UsageError("help") }
        #expect(routes.source.named == ["a", "b"])
        guard case .run(let validate) = try CommandLineParser.parse(["--fixtures", "a", "--fixtures", "shipped"], as: Validate.self)
        else { throw UsageError("help") }
        #expect(validate.source.named == ["a", "shipped"])
        #expect(throws: UsageError("give the fixtures folders as arguments or with --fixtures, not both")) {
            try CommandLineParser.parse(["a", "--fixtures", "b"], as: Validate.self)
        }
    }

    @Test func recordAndHealthRequireTheirTargets() throws {
        guard case .run(let record) = try CommandLineParser.parse(
            ["--target", "http://127.0.0.1:9/base", "--out", "/tmp/out", "--kind", "feathers", "--keep-secrets", "--port", "0"],
            as: Record.self)
        else { throw UsageError("help") }
        #expect(record.target == "http://127.0.0.1:9/base")
        #expect(record.out == "/tmp/out")
        #expect(record.app == "recorded")
        #expect(record.kind == .feathers)
        #expect(record.keepSecrets)
        #expect(record.serverOptions.port == 0)
        #expect(throws: UsageError("missing expected argument '--out <folder>'")) {
            try CommandLineParser.parse(["--target", "http://127.0.0.1:9"], as: Record.self)
        }
        #expect(throws: UsageError("--kind 'feather': did you mean 'feathers'?")) {
            try CommandLineParser.parse(["--target", "http://x", "--out", "o", "--kind", "feather"], as: Record.self)
        }
        guard case .run(let health) = try CommandLineParser.parse(["--url", "http://127.0.0.1:8080"], as: Health.self)
        else { throw UsageError("help") }
        #expect(health.url == "http://127.0.0.1:8080")
        #expect(health.timeout == 2_000)
        #expect(throws: UsageError("missing expected argument '--url <url>'")) { try CommandLineParser.parse([], as: Health.self) }
    }

    /// Within a command no two options share a name, and none is `help` (which `-h`/`--help` is).
    @Test func optionNamesAreDistinct() {
        for command in MockStackCommand.commands {
            let names = Self.optionNames(command)
            #expect(Set(names).count == names.count, "\(command.name): \(names)")
            #expect(!names.contains("help"), "\(command.name)")
        }
    }

    /// Each command's help shows every option and its arguments, no line wider than 79
    /// columns; the list of commands names them all.
    @Test func helpShowsEverythingWithinTheWidth() {
        let program = HelpText.program("mockstack", abstract: MockStackCommand.abstract, commands: MockStackCommand.commands)
        var texts = [program]
        for command in MockStackCommand.commands {
            #expect(program.contains("\n  \(command.name) "), "\(command.name)")
            let help = Self.help(command)
            for name in Self.optionNames(command) { #expect(help.contains("\n  --\(name)"), "\(command.name) --\(name)") }
            texts.append(help)
        }
        #expect(Self.help(Codegen.self).contains("\nARGUMENTS:\n  <language>"))
        #expect(Self.help(Serve.self).contains("  --threads <threads>     Event-loop threads (SO_REUSEPORT when more than one).\n                          [default: 1]\n"))
        // A description runs on below its option, indented to the description column.
        let serve = Self.help(Serve.self).replacingOccurrences(of: "\n" + String(repeating: " ", count: HelpText.descriptionColumn), with: " ")
        #expect(serve.contains("\n  --log-format <log-format> One log line as text or as a JSON object. (values: text, json) [default: text]\n"))
        #expect(serve.contains("\n  --host <host>           Address to bind (env MOCKSTACK_HOST). [default: 127.0.0.1]\n"))
        for text in texts {
            for line in text.split(separator: "\n") { #expect(line.count <= HelpText.width, "\(line)") }
        }
    }

    /// The command lines the project itself gives: the README's and docs' (`mockstack serve …`),
    /// `make serve`'s, the Docker image's and the testing product's (`MockStackProcess.launch`).
    @Test func theProjectsOwnLinesRead() throws {
        let documented = try Self.documentedLines()
        #expect(documented.count >= 8)
        for line in documented {
            let outcome = try CommandLineParser.parse(line, as: Serve.self)
            if case .help = outcome { #expect(line.contains("--help")) }
        }
        _ = try Self.serve(try Self.makeServeLine())
        _ = try Self.serve(try Self.dockerLine())
        let folder = URL(fileURLWithPath: "/tmp/fixtures")
        for spawned in [
            MockStackProcess.serveArguments(arguments: [], apps: nil, fixtures: []),
            MockStackProcess.serveArguments(arguments: ["--threads", "2"], apps: ["test", "example"], fixtures: [folder, folder]),
        ] {
            #expect(spawned.first == "serve")
            _ = try Self.serve(Array(spawned.dropFirst()))
        }
    }

    // MARK: - Helpers

    static func serve(_ words: [String]) throws -> Serve {
        guard case .run(let serve) = try CommandLineParser.parse(words, as: Serve.self) else {
            throw UsageError("\(words) asked for help")
        }
        return serve
    }

    static func help<Command: Subcommand>(_: Command.Type) -> String { HelpText.command(Command.self, in: "mockstack") }

    static func optionNames<Command: Subcommand>(_: Command.Type) -> [String] { Command.options.map(\.name) }

    /// Every stored value of a command, by property path (`serverOptions.port`), option groups
    /// opened up.
    static func fields(of value: Any, prefix: String = "") -> [String: String] {
        var fields: [String: String] = [:]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            if child.value is ServerOptions || child.value is FixturesOption || child.value is TLSOptions {
                fields.merge(Self.fields(of: child.value, prefix: prefix + label + ".")) { first, _ in first }
            } else {
                fields[prefix + label] = String(reflecting: child.value)
            }
        }
        return fields
    }

    static func changedFields(from initial: [String: String], to parsed: [String: String]) -> [String] {
        initial.keys.filter { initial[$0] != parsed[$0] }.sorted()
    }

    /// The words that give `option` its first sample (the flag alone for a flag).
    static func sampleWords(for option: CommandOption<Serve>) throws -> [String] {
        guard option.kind != .flag else { return [option.flagName] }
        let (first, _) = try #require(samples[option.name], "--\(option.name) has no samples")
        return [option.flagName, first]
    }

    /// Two values of each of `serve`'s options, neither its default.
    static let samples: [String: (String, String)] = [
        "host": ("0.0.0.0", "::1"),
        "port": ("8080", "1"),
        "ready-file": ("/tmp/ready.json", "ready file.json"),
        "log-level": ("debug", "warning"),
        "log-format": ("json", "json"),
        "admin-token": ("s3cret", "token=with=equals"),
        "fixtures": ("shipped", "./mine"),
        "threads": ("2", "64"),
        "apps": ("test,example", "example, test"),
        "fixed-date": ("2024-10-21T14:05:14Z", "2025-01-01T00:00:00Z"),
        "expose": ("test=9000", "example=0"),
        "max-body-bytes": ("1", "2048"),
        "max-header-bytes": ("256", "65536"),
        "timeout": ("1", "600"),
        "journal-size": ("0", "999999"),
        "journal-body-bytes": ("0", "67108864"),
        "seed": ("7", "18446744073709551615"),
        "max-sessions": ("1", "100000"),
        "proxy-unmatched": ("http://127.0.0.1:9", "https://api.example.com/base"),
        "proxy-timeout": ("1", "600"),
        "stubs": ("stubs", "./more stubs"),
        "https-port": ("8443", "0"),
        "tls-cert": ("cert.pem", "./my cert.pem"),
        "tls-key": ("key.pem", "./my key.pem"),
        "tls-ca-out": ("ca.pem", "/tmp/ca.pem"),
        "tls-name": ("mockstack", "10.0.0.5"),
    ]

    /// `mockstack serve …` in README.md and docs/, split at spaces; the CLI reference's synopsis
    /// (options in brackets) aside.
    static func documentedLines() throws -> [[String]] {
        let docs = packageRoot.appendingPathComponent("docs")
        let files = [packageRoot.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)).filter { $0.pathExtension == "md" }
        var lines: [[String]] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: #/mockstack serve\b([^`'&#()\n]*)/#) where !match.output.1.contains("[") {
                lines.append(match.output.1.split(separator: " ").map(String.init))
            }
        }
        return lines
    }

    /// `make serve`'s command line, with the Makefile's defaults for its variables.
    static func makeServeLine() throws -> [String] {
        let makefile = try String(contentsOf: packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        var variables: [String: String] = [:]
        for match in makefile.matches(of: #/(?m)^([A-Z_]+)\s*\?=[ \t]*(.*)$/#) {
            variables[String(match.output.1)] = String(match.output.2).trimmingCharacters(in: .whitespaces)
        }
        let line = try #require(makefile.firstMatch(of: #/mockstack" serve (.*)/#)).output.1
        return line.split(separator: " ").map { word in
            word.hasPrefix("$(") ? variables[String(word.dropFirst(2).dropLast())] ?? "(unknown \(word))" : String(word)
        }.filter { !$0.isEmpty }
    }

    /// The Docker image's `CMD` (its entry point is `mockstack`), after `serve`.
    static func dockerLine() throws -> [String] {
        let dockerfile = try String(contentsOf: packageRoot.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let array = try #require(dockerfile.firstMatch(of: #/(?m)^CMD (\[.*\])$/#)).output.1
        let words = try #require(try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [String])
        #expect(words.first == "serve")
        return Array(words.dropFirst())
    }
}

/// `serve`'s HTTPS options: what each name becomes in the certificate made at start, and the
/// combinations refused when `serve` runs.
@Suite struct TLSOptionTests {
    @Test(arguments: [
        (["--tls-cert", "c.pem", "--tls-key", "k.pem"], "--tls-cert needs --https-port"),
        (["--tls-ca-out", "ca.pem"], "--tls-ca-out needs --https-port"),
        (["--tls-name", "mockstack"], "--tls-name needs --https-port"),
        (["--https-port", "0", "--tls-cert", "c.pem"], "--tls-cert needs --tls-key"),
        (["--https-port", "0", "--tls-key", "k.pem"], "--tls-key needs --tls-cert"),
        (["--https-port", "0", "--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls-ca-out", "ca.pem"],
         "--tls-ca-out is for the certificate made at start; --tls-cert gives one"),
        (["--https-port", "0", "--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls-name", "mockstack"],
         "--tls-name is for the certificate made at start; --tls-cert gives one"),
    ] as [([String], String)])
    func combinationsAreRefused(_ words: [String], _ message: String) throws {
        guard case .run(let serve) = try CommandLineParser.parse(words, as: Serve.self) else { throw UsageError("help") }
        #expect(throws: UsageError(message)) { try serve.tls.checkCombination() }
    }

    @Test func theCertificateComesFromTheOptions() throws {
        guard case .run(let made) = try CommandLineParser.parse(["--https-port", "0", "--tls-name", "mockstack", "--tls-name", "::1"], as: Serve.self),
              case .run(let given) = try CommandLineParser.parse(["--https-port", "8443", "--tls-cert", "c.pem", "--tls-key", "k.pem"], as: Serve.self)
        else { throw UsageError("help") }
        try made.tls.checkCombination()
        #expect(made.tls.certificateSource == .generated(extraNames: ["DNS:mockstack", "IP:::1"]))
        #expect(given.tls.certificateSource == .files(certificate: "c.pem", key: "k.pem") && given.tls.httpsPort == 8443)
    }

    @Test(arguments: [
        ("mockstack", "DNS:mockstack"), ("api.test.local", "DNS:api.test.local"), ("host-1", "DNS:host-1"),
        ("10.0.0.5", "IP:10.0.0.5"), ("::1", "IP:::1"), ("fd00::5", "IP:fd00::5"),
    ])
    func namesBecomeSubjectAlternativeNames(_ name: String, _ expected: String) {
        #expect(TLSOptions.subjectName(name) == expected)
    }

    @Test(arguments: ["", "http://x", "x:80", "-x", "a..b", "a b", "näme", "1.2.3.300", String(repeating: "a", count: 64)])
    func otherTextIsRefused(_ name: String) {
        #expect(TLSOptions.subjectName(name) == nil)
    }
}
