import Foundation
import MockStackCore
import Testing

/// `Tests/BadInput/corpus.json` (written by `make_corpus.py`) replayed through the parser alone.
///
/// The corpus records what the transport and the apps answer. Its framing cases (named
/// `request line N: …` or `<app>: …`) are the transport's: the parser must refuse them with one
/// of the statuses listed, or pass them on when the list has the router's 404/405. Every other
/// case is the apps': the parser must pass it on whole, or refuse it with a listed status in
/// the transport's own ("plain") format. `bounded` ones are valid. Where the parser's documented
/// rules answer otherwise, the case would be in ``knownDifferences``.
@Suite(.timeLimit(.minutes(3))) struct HTTP1CorpusTests {
    struct Case {
        var section: String
        var name: String
        /// The request's segments, made into bytes when replayed (some are 17 MiB).
        var segments: JSONValue
        var statuses: [Int]
        var formats: [String]
    }

    static let corpus: JSONValue? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BadInput/corpus.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try? JSONParser().parse(Array(data)).root
    }()

    static let cases: [Case] = {
        ["badInput", "bounded"].flatMap { section in
            (corpus?[section]?.arrayValue ?? []).map { entry in
                Case(section: section, name: entry["name"]?.stringValue ?? "?", segments: entry["request"] ?? .null,
                     statuses: entry["status"]?.arrayValue?.compactMap(\.intValue) ?? entry["status"]?.intValue.map { [$0] } ?? [],
                     formats: entry["format"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            }
        }
    }()

    /// A segment is a string of byte-valued characters (U+0000–U+00FF), or `[segment(s), times]`.
    static func bytes(of segments: JSONValue) -> [UInt8] {
        switch segments {
        case .string(let text):
            return text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        case .array(let items):
            if items.count == 2, let times = items[1].intValue {
                let unit = bytes(of: items[0])
                var repeated: [UInt8] = []
                repeated.reserveCapacity(unit.count * times)
                for _ in 0..<times { repeated.append(contentsOf: unit) }
                return repeated
            }
            return items.flatMap { bytes(of: $0) }
        default:
            return []
        }
    }

    /// Whether the corpus means the transport to answer this case.
    static func isFraming(_ item: Case) -> Bool {
        guard item.section == "badInput" else { return false }
        if item.name.hasPrefix("request line ") { return true }
        return ["test", "feathers", "techstacks", "example", "ai", "__mockstack"].contains { item.name.hasPrefix($0 + ": ") }
    }

    /// How the parser's answer differs from the corpus's, or nil when it agrees.
    static func difference(_ item: Case) -> String? {
        let request = bytes(of: item.segments)
        let step = HTTP1Feed.parse(request)
        let routerStatuses: Set<Int> = [404, 405]
        switch step {
        case .failed(let error, _):
            if item.statuses.contains(error.status), isFraming(item) || item.formats.contains("plain") { return nil }
            return "\(error.status) \(error.message)"
        case .complete(_, _, let consumed):
            if consumed < request.count { return "a request, with \(request.count - consumed) bytes left unread" }
            if isFraming(item), routerStatuses.isDisjoint(with: item.statuses) { return "passed on to the app" }
            return nil
        case .needMore:
            return "still waiting for more bytes"
        }
    }

    @Test func theCorpusIsThere() {
        let all = Self.cases
        #expect(all.count == 651)
        // 33 request lines, 40 cases per app (39 for feathers, whose unknown method is the app's:
        // Node's parser), and 4 headers and chunks once refused only by name.
        #expect(all.filter(Self.isFraming).count == 33 + 6 * 40 - 1 + 4)
    }

    @Test func theParserAnswersTheCorpusAsDocumented() {
        var differences: [String: String] = [:]
        for item in Self.cases {
            if let difference = Self.difference(item) {
                differences["\(item.section) \(item.name) \(item.statuses)"] = difference
            }
        }
        let unexpected = differences.filter { Self.knownDifferences[$0.key] != $0.value }
        let gone = Self.knownDifferences.filter { differences[$0.key] != $0.value }
        #expect(unexpected.isEmpty, "new differences:\n\(unexpected.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value.debugDescription)," }.joined(separator: "\n"))")
        #expect(gone.isEmpty, "differences no longer seen: \(gone.keys.sorted())")
    }

    /// Every case where the parser's rule differs from the corpus's expectation:
    /// "section name [corpus statuses]" → what the parser does. The corpus states the parser's
    /// rules, so there are none; a new one fails the test.
    static let knownDifferences: [String: String] = [:]
}
