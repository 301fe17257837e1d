import ArgumentParser
import Foundation
@testable import mockstack
@testable import MockStackTesting
import Testing
import TestSupport

/// `serve`'s fast path (`Serve(plainArguments:)`) held to ArgumentParser, the parser of record:
/// the same options, and each command line either read exactly as ArgumentParser reads it or
/// left to it. Plain values: nothing is started or served.
@Suite struct ServeFastPathTests {
    /// Which parser ends up reading a command line.
    enum Reader {
        /// The fast path takes it, and its `Serve` equals ArgumentParser's field by field.
        case fastPath
        /// The fast path leaves it, and ArgumentParser refuses it (or answers help).
        case refusedByArgumentParser
        /// The fast path leaves it, and ArgumentParser takes it (the slow path, not a mistake).
        case argumentParserOnly
    }

    /// The table against ArgumentParser's own description of `serve` (its
    /// `--experimental-dump-help` JSON): an option added to, renamed in or removed from `Serve`,
    /// `ServerOptions` or `FixturesOption` fails here until the fast path knows it.
    @Test func theTableHasEveryOptionArgumentParserDescribes() throws {
        let dump = try JSONSerialization.jsonObject(with: Data(Serve._dumpHelp().utf8)) as? [String: Any]
        let arguments = try #require((dump?["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        var described: [String] = []
        for argument in arguments {
            let names = (argument["names"] as? [[String: String]] ?? []).map { "\($0["kind"] ?? "?") \($0["name"] ?? "?")" }
            if names.contains("long help") { continue }
            // The fast path reads `--name` only, and a value as the next word or after `=`.
            #expect(names.count == 1 && names[0].hasPrefix("long "), "\(names): the fast path knows long names only")
            #expect(argument["parsingStrategy"] as? String == "default", "\(names): the fast path reads the default parsing strategy only")
            let kind = switch (argument["kind"] as? String, argument["isRepeating"] as? Bool) {
            case ("flag", false): "flag"
            case ("option", false): "option"
            case ("option", true): "repeating"
            case (let kind, let repeating): "\(kind ?? "?"), repeating: \(repeating.map(String.init) ?? "?")"
            }
            described.append("--\(names.first?.dropFirst("long ".count) ?? "") \(kind)")
        }
        let table = Serve.plainOptions.map { "--\($0.name) \($0.kind.rawValue)" }
        #expect(table.sorted() == described.sorted())
    }

    /// Each row's value type is its property's (`Option<Int>` for an `Int` row), and every
    /// property the parsed `Serve` holds has a row.
    @Test func eachRowHasItsPropertysType() throws {
        let serve = try #require(Serve(plainArguments: []))
        let wrappers = Self.propertyWrappers(of: serve)
        #expect(wrappers.keys.sorted() == Serve.plainOptions.map(\.name).sorted())
        for option in Serve.plainOptions {
            let wrapper = option.kind == .flag ? "Flag" : "Option"
            #expect(wrappers[option.name] == "\(wrapper)<\(option.valueType)>", "--\(option.name)")
        }
    }

    /// Every option alone, as `--name value` and as `--name=value`; all of them at once, in
    /// declaration order and backwards; each given twice (the last wins, a repeatable one keeps
    /// both); and none (every default).
    @Test(arguments: generatedLines())
    func generatedLinesReadAsArgumentParserReadsThem(_ arguments: [String]) throws {
        try Self.check(arguments, .fastPath)
    }

    /// Mistakes, help and the rest the fast path leaves to ArgumentParser.
    @Test(arguments: [
        // Help, in any place.
        (["--help"], Reader.refusedByArgumentParser),
        (["-h"], .refusedByArgumentParser),
        (["help"], .refusedByArgumentParser),
        (["--port", "0", "--help"], .refusedByArgumentParser),
        // Unknown or misspelt options, short ones, commands' options.
        (["--bogus"], .refusedByArgumentParser),
        (["--prot", "0"], .refusedByArgumentParser),
        (["--Port", "0"], .refusedByArgumentParser),
        (["--fixture", "Fixtures"], .refusedByArgumentParser),
        (["-p", "0"], .refusedByArgumentParser),
        (["--version"], .refusedByArgumentParser),
        (["--generate-completion-script", "bash"], .refusedByArgumentParser),
        (["--experimental-dump-help"], .refusedByArgumentParser),
        // A missing value.
        (["--port"], .refusedByArgumentParser),
        (["--port", "--watch"], .refusedByArgumentParser),
        (["--fixtures"], .refusedByArgumentParser),
        // A value its type refuses, even when a later one is good.
        (["--port", "eighty"], .refusedByArgumentParser),
        (["--port=0x10"], .refusedByArgumentParser),
        (["--threads", "1_000"], .refusedByArgumentParser),
        (["--seed", "1.5"], .refusedByArgumentParser),
        (["--log-level", "loud"], .refusedByArgumentParser),
        (["--log-format", "xml"], .refusedByArgumentParser),
        (["--expose", "test"], .refusedByArgumentParser),
        (["--expose", "=9000"], .refusedByArgumentParser),
        (["--expose", "test=65536"], .refusedByArgumentParser),
        (["--port", "eighty", "--port", "80"], .refusedByArgumentParser),
        // A failed validate(), serve's or ServerOptions'.
        (["--threads", "0"], .refusedByArgumentParser),
        (["--port", "65536"], .refusedByArgumentParser),
        (["--max-header-bytes", "255"], .refusedByArgumentParser),
        (["--timeout", "0"], .refusedByArgumentParser),
        (["--journal-size", "1000001"], .refusedByArgumentParser),
        (["--max-sessions", "0"], .refusedByArgumentParser),
        (["--proxy-timeout", "601"], .refusedByArgumentParser),
        (["--proxy-unmatched", "ftp://example.com"], .refusedByArgumentParser),
        (["--proxy-unmatched", "example.com"], .refusedByArgumentParser),
        // Positionals and `--`.
        (["extra"], .refusedByArgumentParser),
        (["--watch", "extra"], .refusedByArgumentParser),
        (["--port", "0", "1"], .refusedByArgumentParser),
        (["--", "--port", "0"], .refusedByArgumentParser),
        // A flag given a value; an empty value.
        (["--watch=true"], .refusedByArgumentParser),
        (["--host="], .refusedByArgumentParser),
        // What the fast path does not try to read like ArgumentParser, which takes it: a
        // value that starts with `-`, a flag's empty value, `--` with nothing after it.
        (["--port=-0"], .argumentParserOnly),
        (["--admin-token=-secret"], .argumentParserOnly),
        (["--no-load-cache="], .argumentParserOnly),
        (["--"], .argumentParserOnly),
        (["--port", "0", "--"], .argumentParserOnly),
    ] as [([String], Reader)])
    func linesLeftToArgumentParser(_ arguments: [String], _ reader: Reader) throws {
        try Self.check(arguments, reader)
    }

    /// Lines whose reading is easy to get wrong: a value that looks like a command or holds `=`.
    @Test(arguments: [
        ["--host", "help"],
        ["--apps", "serve"],
        ["--apps=a=b"],
        ["--expose", "test=9000", "--expose=example=9001"],
        ["--watch", "--watch"],
        ["--fixtures", "shipped", "--port", "0", "--fixtures", "./mine"],
    ])
    func trickyLinesReadAsArgumentParserReadsThem(_ arguments: [String]) throws {
        try Self.check(arguments, .fastPath)
    }

    /// The command lines the project itself gives: the README's and docs' (`mockstack serve …`;
    /// help is left to ArgumentParser), `make serve`'s, the Docker image's and the XCTest
    /// helper's (`MockStackProcess.launch`).
    @Test func theProjectsOwnLinesTakeTheFastPath() throws {
        let documented = try Self.documentedLines()
        #expect(documented.count >= 8)
        for line in documented {
            try Self.check(line, line.contains("--help") ? .refusedByArgumentParser : .fastPath)
        }
        try Self.check(try Self.makeServeLine(), .fastPath)
        try Self.check(try Self.dockerLine(), .fastPath)
        let folder = URL(fileURLWithPath: "/tmp/fixtures")
        for spawned in [
            MockStackProcess.serveArguments(arguments: [], apps: nil, fixtures: []),
            MockStackProcess.serveArguments(arguments: ["--threads", "2"], apps: ["test", "example"], fixtures: [folder, folder]),
        ] {
            #expect(spawned.first == "serve")
            try Self.check(Array(spawned.dropFirst()), .fastPath)
        }
    }

    // MARK: - Helpers

    /// Reads `arguments` both ways and checks that `reader` is the one that ends up reading it.
    static func check(_ arguments: [String], _ reader: Reader, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = Serve(plainArguments: arguments)
        let reference = (try? Serve.parseAsRoot(arguments)) as? Serve
        switch reader {
        case .fastPath:
            let fast = try #require(fast, "the fast path left \(arguments) to ArgumentParser", sourceLocation: sourceLocation)
            let reference = try #require(reference, "ArgumentParser refused \(arguments)", sourceLocation: sourceLocation)
            let (ours, theirs) = (fields(of: fast), fields(of: reference))
            let differences = Set(ours.keys).union(theirs.keys).sorted().filter { ours[$0] != theirs[$0] }.map {
                "\($0): fast path \(ours[$0] ?? "(none)"), ArgumentParser \(theirs[$0] ?? "(none)")"
            }
            #expect(differences.isEmpty, "\(arguments): \(differences.joined(separator: "; "))", sourceLocation: sourceLocation)
            #expect(ours.count >= Serve.plainOptions.count, sourceLocation: sourceLocation)
        case .refusedByArgumentParser:
            #expect(fast == nil, "the fast path took \(arguments)", sourceLocation: sourceLocation)
            #expect(reference == nil, "ArgumentParser took \(arguments)", sourceLocation: sourceLocation)
        case .argumentParserOnly:
            #expect(fast == nil, "the fast path took \(arguments)", sourceLocation: sourceLocation)
            #expect(reference != nil, "ArgumentParser refused \(arguments)", sourceLocation: sourceLocation)
        }
    }

    /// Every value a parsed command holds, by property (`serverOptions.port`), read through its
    /// property wrappers with `Mirror`; an option group's values under its name.
    static func fields(of command: Any, prefix: String = "") -> [String: String] {
        var fields: [String: String] = [:]
        for child in Mirror(reflecting: command).children {
            guard let label = child.label, label.hasPrefix("_") else { continue }
            let name = prefix + label.dropFirst()
            let parsed = Mirror(reflecting: child.value).children.first { $0.label == "_parsedValue" }
            guard let state = parsed.flatMap({ Mirror(reflecting: $0.value).children.first }), state.label == "value" else {
                fields[name] = "(not set)"
                continue
            }
            if state.value is any ParsableArguments {
                fields.merge(Self.fields(of: state.value, prefix: name + ".")) { first, _ in first }
            } else {
                fields[name] = String(reflecting: state.value)
            }
        }
        return fields
    }

    /// Each of a command's options, by the name ArgumentParser gives it (`max-body-bytes`), and
    /// its property wrapper's type (`Option<Int>`); an option group's options among them.
    static func propertyWrappers(of command: Any) -> [String: String] {
        var wrappers: [String: String] = [:]
        for child in Mirror(reflecting: command).children {
            guard let label = child.label, label.hasPrefix("_") else { continue }
            let state = Mirror(reflecting: child.value).children.first { $0.label == "_parsedValue" }
                .flatMap { Mirror(reflecting: $0.value).children.first }
            if let group = state?.value, group is any ParsableArguments {
                wrappers.merge(propertyWrappers(of: group)) { first, _ in first }
                continue
            }
            // ArgumentParser's long name: `maxBodyBytes` → `max-body-bytes`.
            let name = label.dropFirst().map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
            wrappers[name] = String(describing: type(of: child.value))
        }
        return wrappers
    }

    /// Two values of each option, neither its default.
    static let samples: [String: (String, String)] = [
        "host": ("0.0.0.0", "::1"),
        "port": ("8080", "0"),
        "ready-file": ("/tmp/ready.json", "ready file.json"),
        "log-level": ("debug", "warning"),
        "log-format": ("json", "text"),
        "admin-token": ("s3cret", "token=with=equals"),
        "fixtures": ("shipped", "./mine"),
        "threads": ("2", "64"),
        "apps": ("test,example", "example, test"),
        "fixed-date": ("2024-10-21T14:05:14Z", "2025-01-01T00:00:00Z"),
        "expose": ("test=9000", "example=0"),
        "max-body-bytes": ("1", "2048"),
        "max-header-bytes": ("256", "65536"),
        "timeout": ("1", "600"),
        "journal-size": ("0", "1000000"),
        "journal-body-bytes": ("0", "67108864"),
        "seed": ("7", "18446744073709551615"),
        "max-sessions": ("1", "100000"),
        "proxy-unmatched": ("http://127.0.0.1:9", "https://api.example.com/base"),
        "proxy-timeout": ("1", "600"),
    ]

    static func generatedLines() -> [[String]] {
        var lines: [[String]] = [[]]
        var spaced: [String] = [], attached: [String] = []
        for option in Serve.plainOptions {
            let flag = "--" + option.name
            guard option.kind != .flag else {
                lines.append([flag])
                spaced.append(flag)
                attached.append(flag)
                continue
            }
            // A row without samples fails the check of its line.
            let (first, second) = samples[option.name] ?? ("(no sample)", "(no sample)")
            lines.append([flag, first])
            lines.append([flag + "=" + second])
            lines.append([flag, first, flag + "=" + second])
            lines.append([flag + "=" + second, flag, first])
            spaced += [flag, first]
            attached.append(flag + "=" + second)
        }
        lines.append(spaced)
        lines.append(attached.reversed())
        return lines
    }

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
