import ArgumentParser
import Logging
import MockStack
import MockStackTransport

/// One of `serve`'s options, its long name and its default written once: its ArgumentParser
/// property takes both from here (`@Option(name: OptionDeclarations.threads.long)`,
/// `= OptionDeclarations.threads.initial`), and so does its row in `Serve.plainOptions`, whose
/// constructors hold the row's setter to the same value type. Neither side can spell the name or
/// the default differently; `ServeFastPathTests` checks that every option has its row.
struct OptionDeclaration<Value: Sendable>: Sendable {
    /// The long name without its dashes (`max-body-bytes`).
    let name: String
    /// The value when the option is not given (nil, empty or false for most).
    let initial: Value

    init(_ name: String, default initial: Value) {
        self.name = name
        self.initial = initial
    }

    /// ArgumentParser's name for it: `--name` only.
    var long: NameSpecification { .customLong(name) }
}

extension OptionDeclaration {
    /// An optional option, nil when not given.
    init<Wrapped>(_ name: String) where Value == Wrapped? {
        self.init(name, default: nil)
    }
}

/// Every option `serve` reads (`ServerOptions`' and `FixturesOption`'s included), in the order
/// they are declared.
enum OptionDeclarations {
    static let host = OptionDeclaration<String?>("host")
    static let port = OptionDeclaration<Int?>("port")
    static let readyFile = OptionDeclaration<String?>("ready-file")
    static let logLevel = OptionDeclaration<Logger.Level>("log-level", default: .info)
    static let logFormat = OptionDeclaration<LogFormat>("log-format", default: .text)
    static let adminToken = OptionDeclaration<String?>("admin-token")
    static let fixtures = OptionDeclaration<[String]>("fixtures", default: [])
    static let threads = OptionDeclaration("threads", default: defaults.transport.threads)
    static let apps = OptionDeclaration<String?>("apps")
    static let fixedDate = OptionDeclaration<String?>("fixed-date")
    static let expose = OptionDeclaration<[Exposure]>("expose", default: [])
    static let maxBodyBytes = OptionDeclaration("max-body-bytes", default: defaults.transport.maxBodyBytes)
    static let maxHeaderBytes = OptionDeclaration("max-header-bytes", default: defaults.transport.maxHeaderBytes)
    static let timeout = OptionDeclaration("timeout", default: defaults.transport.timeoutSeconds)
    static let journalSize = OptionDeclaration("journal-size", default: defaults.journalSize)
    static let journalBodyBytes = OptionDeclaration("journal-body-bytes", default: defaults.journalBodyBytes)
    static let watch = OptionDeclaration("watch", default: false)
    static let noLoadCache = OptionDeclaration("no-load-cache", default: false)
    static let stopOnStdinEof = OptionDeclaration("stop-on-stdin-eof", default: false)
    static let seed = OptionDeclaration("seed", default: defaults.seed)
    static let maxSessions = OptionDeclaration("max-sessions", default: defaults.maxSessions)
    static let proxyUnmatched = OptionDeclaration<String?>("proxy-unmatched")
    static let proxyTimeout = OptionDeclaration("proxy-timeout", default: defaults.proxyTimeoutSeconds)
}
