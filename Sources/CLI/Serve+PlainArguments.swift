import ArgumentParser
import Logging
import MockStack
import MockStackTransport

/// `serve`'s fast path: a plain command line read without ArgumentParser.
///
/// ArgumentParser builds its picture of `serve` by reflection — a `Mirror` over the property
/// wrappers, a dynamic cast per wrapper type, each default described — and each of the Swift
/// runtime's first-time casts and lookups scans all of the static binary's protocol
/// conformance records: once the biggest single part of start-up. This path's cost is mostly
/// making the `Serve` value's property wrappers (Benchmarks/LOG.md). It reads what it fully understands
/// — `--name value`, `--name=value`, the flags, the repeatable options, in any order — into the
/// same `Serve` value, and gives up on anything else: help, an unknown or misspelt option, a
/// missing or empty value or one that starts with `-`, one its type refuses (the same
/// `init?(argument:)` ArgumentParser calls), a positional, `--`, a failed `validate()`. Those
/// go to ArgumentParser, which stays the parser of record, so every message, help text and exit
/// status is its own.
///
/// `ServeFastPathTests` holds `plainOptions` to ArgumentParser's own description of `serve`
/// (names, kinds, value types) and checks, over a corpus of command lines, that each one is
/// either read exactly as ArgumentParser reads it or left to it.
extension Serve {
    /// `arguments` (after `serve`) read as ArgumentParser would read them, or nil for anything
    /// the fast path leaves to it.
    @inline(never)  // a function of its own for Benchmarks/startup.py's argument-parsing line
    init?(plainArguments arguments: [String]) {
        let options = Self.plainOptions
        var given = [[String]](repeating: [], count: options.count)
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            // A positional (`help` among them), `-h`, or a short option.
            guard word.hasPrefix("--") else { return nil }
            var name = word.dropFirst(2)
            var attached: Substring?
            if let equals = name.firstIndex(of: "=") {
                attached = name[name.index(after: equals)...]
                name = name[..<equals]
            }
            // `--`, `--help`, an option `serve` does not have.
            guard let row = options.firstIndex(where: { $0.name == name }) else { return nil }
            if options[row].kind == .flag {
                guard attached == nil else { return nil }
                given[row].append("")
                continue
            }
            let value: String
            if let attached {
                value = String(attached)
            } else {
                guard index < arguments.endIndex else { return nil }
                value = arguments[index]
                index += 1
            }
            // ArgumentParser reads a word that starts with `-` as an option, not a value; an
            // empty value is left to it too.
            guard let first = value.utf8.first, first != UInt8(ascii: "-") else { return nil }
            given[row].append(value)
        }
        var serve = Serve()
        // The option groups hold values before their options are set one by one.
        serve.serverOptions = ServerOptions()
        serve.fixtures = FixturesOption()
        for (option, words) in zip(options, given) {
            guard option.assign(&serve, words) else { return nil }
        }
        do {
            try serve.serverOptions.validate()
            try serve.fixtures.validate()
            try serve.validate()
        } catch {
            return nil
        }
        self = serve
    }

    /// Every option of `serve`, `ServerOptions`' and `FixturesOption`'s included: a row for each
    /// of ``OptionDeclarations``, in the order they are declared.
    static let plainOptions: [PlainOption] = [
        .option(OptionDeclarations.host) { $0.serverOptions.host = $1 },
        .option(OptionDeclarations.port) { $0.serverOptions.port = $1 },
        .option(OptionDeclarations.readyFile) { $0.serverOptions.readyFile = $1 },
        .option(OptionDeclarations.logLevel) { $0.serverOptions.logLevel = $1 },
        .option(OptionDeclarations.logFormat) { $0.serverOptions.logFormat = $1 },
        .option(OptionDeclarations.adminToken) { $0.adminToken = $1 },
        .repeating(OptionDeclarations.fixtures) { $0.fixtures.fixtures = $1 },
        .option(OptionDeclarations.threads) { $0.threads = $1 },
        .option(OptionDeclarations.apps) { $0.apps = $1 },
        .option(OptionDeclarations.fixedDate) { $0.fixedDate = $1 },
        .repeating(OptionDeclarations.expose) { $0.expose = $1 },
        .option(OptionDeclarations.maxBodyBytes) { $0.maxBodyBytes = $1 },
        .option(OptionDeclarations.maxHeaderBytes) { $0.maxHeaderBytes = $1 },
        .option(OptionDeclarations.timeout) { $0.timeout = $1 },
        .option(OptionDeclarations.journalSize) { $0.journalSize = $1 },
        .option(OptionDeclarations.journalBodyBytes) { $0.journalBodyBytes = $1 },
        .flag(OptionDeclarations.watch) { $0.watch = $1 },
        .flag(OptionDeclarations.noLoadCache) { $0.noLoadCache = $1 },
        .flag(OptionDeclarations.stopOnStdinEof) { $0.stopOnStdinEof = $1 },
        .option(OptionDeclarations.seed) { $0.seed = $1 },
        .option(OptionDeclarations.maxSessions) { $0.maxSessions = $1 },
        .option(OptionDeclarations.proxyUnmatched) { $0.proxyUnmatched = $1 },
        .option(OptionDeclarations.proxyTimeout) { $0.proxyTimeout = $1 },
    ]
}
