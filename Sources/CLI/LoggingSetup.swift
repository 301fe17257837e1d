import Logging
import MockStackJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--log-format`.
enum LogFormat: String, CommandLineChoice {
    case text, json
}

/// The only place that bootstraps swift-log: the CLI. Everything logs to stderr, so stdout
/// carries nothing but the ready line.
enum LoggingSetup {
    static func bootstrap(level: Logger.Level, format: LogFormat) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                switch format {
                case .text: StreamLogHandler.standardError(label: label)
                case .json: JSONLogHandler(label: label)
                }
            handler.logLevel = level
            return handler
        }
        return Logger(label: "mockstack")
    }
}

/// One JSON object per line on stderr: time, level, label, message, then metadata.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [(String, String)] = [
            (
                "time",
                Date().ISO8601Format(
                    .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
            ),
            ("level", event.level.rawValue),
            ("label", label),
            ("message", event.message.description),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for key in merged.keys.sorted() { fields.append((key, merged[key]!.description)) }
        let line = "{" + fields.map { "\(quote($0.0)):\(quote($0.1))" }.joined(separator: ",") + "}\n"
        StandardStream.error.write(line)
    }

    /// `text` as a JSON string literal, by MockStackJSON's encoder.
    private func quote(_ text: String) -> String {
        var out: [UInt8] = []
        JSONValue.encodeString(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
