import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request an app answered, as the journal keeps it: the request itself (its body cut at
/// the capture limit), the multipart parts when there were any, and how it was answered. JSON
/// is rendered only when a test asks for it, so recording costs a few copies.
struct JournalEntry: Sendable {
    /// A multipart part, described (its fields within ``JournalBounds/partFieldBytes``).
    struct Part: Sendable {
        var name: String
        var fileName: String?
        var contentType: String?
        var size: Int
        /// Whether a field was cut.
        var truncated = false
    }

    /// The parts described, and how many more the request had (``JournalBounds/parts``).
    struct PartList: Sendable {
        var parts: [Part]
        var dropped: Int
    }

    /// A body's Content-Type as sent, within ``JournalBounds/headerValueBytes``. Read from the
    /// kept headers when they were kept whole (every value then is within the bound), so that
    /// recording an ordinary request looks nothing up; noted when the entry is made otherwise.
    enum BodyType: Sendable {
        case inKeptHeaders
        case noted(String?)

        /// What this says for a body whose kept headers are `headers`.
        func resolved(in headers: HTTPHeaders) -> String? {
            switch self {
            case .inKeptHeaders: headers["Content-Type"]
            case .noted(let type): type
            }
        }
    }

    /// Increasing from 1, never reused: `since=` takes one.
    var id: Int
    var time: Date
    /// The app the request reached; nil when no app is mounted at its path.
    var app: String?
    var session: String?
    /// The request within ``JournalBounds`` (path, query, headers) and its body cut.
    var request: HTTPRequest
    /// What ``JournalBounds`` cut from the request.
    var cuts = JournalBounds.Cuts()
    /// The full body's size (the kept body may be shorter).
    var bodySize: Int
    /// The body's Content-Type as sent (within ``JournalBounds/headerValueBytes``), which
    /// decides whether it is shown as text, even when the kept headers lost it.
    var bodyType: BodyType
    var parts: PartList?
    var stub: String?
    /// The answer as kept: the response itself when its headers are within ``JournalBounds`` and
    /// its body not far beyond the capture limit (its box shared, not copied), else a copy with
    /// both cut (``JournalBounds``). Its delivery says how it was sent: late, slowly, chunked or
    /// broken on purpose.
    var response: HTTPResponse
    /// Whether ``JournalBounds`` cut the answer's headers (a stub's, or an echo of the request's).
    var responseHeadersTruncated = false
    /// The answer's Content-Type as sent.
    var responseBodyType: BodyType
    /// How many bytes of the answer's body the entry shows: the capture limit's worth, cut
    /// from ``response`` when the entry is read.
    var responseBodyShown: Int
    /// The full answer body's size (the kept body may be shorter).
    var responseBodySize: Int
    var duration: Duration
    /// Whether the answer came from the upstream a request no app or stub took is forwarded to
    /// (`serve --proxy-unmatched`, `record`).
    var proxied = false
    /// Whether a stub's regex ran out of steps on the request (``PatternBudget``), so that the
    /// stub counted as not matching it.
    var patternBudgetSpent = false

    /// What answered (an operation, a service method, a fixture), from the response.
    var operation: String? { response.operation }
    /// Whether nothing took the request: no app is mounted at its path, or the app has no
    /// route for it, and no stub answered, nor the upstream it was forwarded to.
    var unmatched: Bool { stub == nil && operation == nil && !proxied }
    /// The status the client got: 0 when a fault kept every status line from it (a reset, an
    /// empty close, a hang, bytes that are not HTTP), whatever the app or stub answered first.
    /// `response.status` still says what that was.
    var status: Int { delivery.fault?.withholdsStatusLine == true ? 0 : response.status }
    var delivery: Delivery { response.delivery }

    /// What an entry weighs besides its request and answer (``JournalBounds/weight(path:query:headerCount:body:)``).
    static let fixedBytes = 512

    /// What described multipart parts weigh: each at the most ``JournalBounds`` lets it keep.
    static func bytes(of parts: PartList?) -> Int {
        (parts?.parts.count ?? 0) * 3 * JournalBounds.partFieldBytes
    }

    /// `{"id", "time", "app", "session", "method", "path", "query", "headers", "body", "parts",
    /// "operation", "stub", "unmatched", "proxied"?, "secure"?, "patternBudgetSpent"?, "status", "response",
    /// "durationMs"}`; each body as text when it is UTF-8 of a textual type, else base64, with its
    /// full size and whether it was cut. What ``JournalBounds`` cut is marked only when something
    /// was: `"pathTruncated"`, `"queryTruncated"`, `"headersTruncated"` (true), `"partsDropped"` (a
    /// count), and `"truncated": true` on a part.
    var json: JSONValue {
        var object: JSONObject = [
            "id": .number(JSONNumber(id)),
            "time": .string(time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "app": app.map(JSONValue.string) ?? .null,
            "session": session.map(JSONValue.string) ?? .null,
            "method": .string(request.method.rawValue),
            "path": .string(request.path),
            "query": request.query.map(JSONValue.string) ?? .null,
        ]
        if cuts.path { object["pathTruncated"] = .bool(true) }
        if cuts.query { object["queryTruncated"] = .bool(true) }
        object["headers"] = Self.json(request.headers)
        if cuts.headers { object["headersTruncated"] = .bool(true) }
        object["body"] = Self.bodyJSON(request.body, size: bodySize, type: bodyType.resolved(in: request.headers))
        if let parts {
            object["parts"] = .array(
                parts.parts.map { part in
                    var described: JSONObject = [
                        "name": .string(part.name), "fileName": part.fileName.map(JSONValue.string) ?? .null,
                        "contentType": part.contentType.map(JSONValue.string) ?? .null,
                        "size": .number(JSONNumber(part.size)),
                    ]
                    if part.truncated { described["truncated"] = .bool(true) }
                    return .object(described)
                })
            if parts.dropped > 0 { object["partsDropped"] = .number(JSONNumber(parts.dropped)) }
        }
        object["operation"] = operation.map(JSONValue.string) ?? .null
        object["stub"] = stub.map(JSONValue.string) ?? .null
        object["unmatched"] = .bool(unmatched)
        if proxied { object["proxied"] = .bool(true) }
        if request.isSecure { object["secure"] = .bool(true) }
        if patternBudgetSpent { object["patternBudgetSpent"] = .bool(true) }
        object["status"] = .number(JSONNumber(status))
        var answer: JSONObject = [
            "status": .number(JSONNumber(response.status)), "headers": Self.json(response.headers),
        ]
        if responseHeadersTruncated { answer["headersTruncated"] = .bool(true) }
        answer["body"] = Self.bodyJSON(
            Array(response.body.prefix(responseBodyShown)), size: responseBodySize,
            type: responseBodyType.resolved(in: response.headers))
        object["response"] = .object(answer)
        object["delivery"] = Self.json(delivery)
        let (seconds, attoseconds) = duration.components
        // Milliseconds to the microsecond (typed apart from the call: inside the overloaded
        // initialiser the arithmetic is slow to type-check).
        let milliseconds: Double = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        let rounded: Double = (milliseconds * 1000).rounded() / 1000
        object["durationMs"] = .number(JSONNumber(rounded))
        return .object(object)
    }

    /// `null` for a plain answer, else `{"delayMs", "throttleBytesPerSecond", "fault", "chunked",
    /// "upgrade", "streamed", "deferred"}` with what applies.
    private static func json(_ delivery: Delivery) -> JSONValue {
        var object = JSONObject()
        var step = delivery
        while true {
            switch step {
            case .immediate: return object.isEmpty ? .null : .object(object)
            case .delayed(let milliseconds, let then):
                object["delayMs"] = .number(JSONNumber(milliseconds))
                step = then
                continue
            case .throttled(let rate): object["throttleBytesPerSecond"] = .number(JSONNumber(rate))
            case .fault(let fault): object["fault"] = .string(fault.rawValue)
            case .chunked: object["chunked"] = .bool(true)
            case .upgrade: object["upgrade"] = .bool(true)
            case .streamed: object["streamed"] = .bool(true)
            case .deferred: object["deferred"] = .bool(true)
            }
            return .object(object)
        }
    }

    private static func json(_ headers: HTTPHeaders) -> JSONValue {
        var object = JSONObject()
        for field in headers {
            object[field.name] = .string(object[field.name]?.stringValue.map { $0 + ", " + field.value } ?? field.value)
        }
        return .object(object)
    }

    private static func bodyJSON(_ kept: [UInt8], size: Int, type: String?) -> JSONValue {
        guard size > 0 else { return .null }
        var body: JSONObject = ["size": .number(JSONNumber(size)), "truncated": .bool(kept.count < size)]
        let type = type?.lowercased() ?? ""
        let textual =
            type.isEmpty || type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
            || type.contains("x-www-form-urlencoded")
            || type.contains("javascript")
        if textual, let text = String(validating: kept, as: UTF8.self) {
            body["text"] = .string(text)
        } else {
            body["base64"] = .string(Data(kept).base64EncodedString())
        }
        return .object(body)
    }
}
