#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackCore

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

    /// Increasing from 1, never reused: `since=` takes one.
    var id: Int
    var time: Date
    var app: String
    var session: String?
    /// The request within ``JournalBounds`` (path, query, headers) and its body cut.
    var request: HTTPRequest
    /// What ``JournalBounds`` cut from the request.
    var cuts = JournalBounds.Cuts()
    /// The full body's size (the kept body may be shorter).
    var bodySize: Int
    /// The body's Content-Type as sent (within ``JournalBounds/headerValueBytes``), which
    /// decides whether it is shown as text, even when the kept headers lost it.
    var bodyType: String?
    var parts: PartList?
    var operation: String?
    var stub: String?
    var status: Int
    /// The answer's headers and body (cut at the capture limit, like the request's).
    var responseHeaders: HTTPHeaders
    /// Whether ``JournalBounds`` cut the answer's headers (a stub's, or an echo of the request's).
    var responseHeadersTruncated = false
    /// The answer's Content-Type as sent.
    var responseBodyType: String?
    var responseBody: [UInt8]
    var responseBodySize: Int
    /// How the answer was sent: late, slowly, chunked or broken on purpose.
    var delivery: Delivery
    var duration: Duration

    /// About what the entry holds in memory, what the journals' byte limits count: its bodies
    /// exactly, and the rest by the most ``JournalBounds`` lets each part of it keep (headers
    /// counted at their bound when there are many, so that recording stays a few additions).
    var estimatedBytes: Int {
        let headerBytes = min(JournalBounds.headerBytes, 128 * request.headers.count) + min(JournalBounds.headerBytes, 128 * responseHeaders.count)
        let partBytes = (parts?.parts.count ?? 0) * 3 * JournalBounds.partFieldBytes
        return 512 + request.body.count + responseBody.count + request.path.utf8.count + (request.query?.utf8.count ?? 0) + headerBytes + partBytes
    }

    /// `{"id", "time", "app", "session", "method", "path", "query", "headers", "body", "parts",
    /// "operation", "stub", "status", "response", "durationMs"}`; each body as text when it is
    /// UTF-8 of a textual type, else base64, with its full size and whether it was cut. What
    /// ``JournalBounds`` cut is marked only when something was: `"pathTruncated"`,
    /// `"queryTruncated"`, `"headersTruncated"` (true), `"partsDropped"` (a count), and
    /// `"truncated": true` on a part.
    var json: JSONValue {
        var object: JSONObject = [
            "id": .number(JSONNumber(id)),
            "time": .string(time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "app": .string(app),
            "session": session.map(JSONValue.string) ?? .null,
            "method": .string(request.method.rawValue),
            "path": .string(request.path),
            "query": request.query.map(JSONValue.string) ?? .null,
        ]
        if cuts.path { object["pathTruncated"] = .bool(true) }
        if cuts.query { object["queryTruncated"] = .bool(true) }
        object["headers"] = Self.json(request.headers)
        if cuts.headers { object["headersTruncated"] = .bool(true) }
        object["body"] = Self.bodyJSON(request.body, size: bodySize, type: bodyType)
        if let parts {
            object["parts"] = .array(parts.parts.map { part in
                var described: JSONObject = ["name": .string(part.name), "fileName": part.fileName.map(JSONValue.string) ?? .null,
                                             "contentType": part.contentType.map(JSONValue.string) ?? .null, "size": .number(JSONNumber(part.size))]
                if part.truncated { described["truncated"] = .bool(true) }
                return .object(described)
            })
            if parts.dropped > 0 { object["partsDropped"] = .number(JSONNumber(parts.dropped)) }
        }
        object["operation"] = operation.map(JSONValue.string) ?? .null
        object["stub"] = stub.map(JSONValue.string) ?? .null
        object["status"] = .number(JSONNumber(status))
        var answer: JSONObject = ["status": .number(JSONNumber(status)), "headers": Self.json(responseHeaders)]
        if responseHeadersTruncated { answer["headersTruncated"] = .bool(true) }
        answer["body"] = Self.bodyJSON(responseBody, size: responseBodySize, type: responseBodyType)
        object["response"] = .object(answer)
        object["delivery"] = Self.json(delivery)
        let (seconds, attoseconds) = duration.components
        // Milliseconds to the microsecond.
        object["durationMs"] = .number(JSONNumber(((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000))
        return .object(object)
    }

    /// `null` for a plain answer, else `{"delayMs", "throttleBytesPerSecond", "fault", "chunked", "upgrade"}`
    /// with what applies.
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
        let textual = type.isEmpty || type.hasPrefix("text/") || type.contains("json") || type.contains("xml") || type.contains("x-www-form-urlencoded")
            || type.contains("javascript")
        if textual, let text = String(validating: kept, as: UTF8.self) {
            body["text"] = .string(text)
        } else {
            body["base64"] = .string(Data(kept).base64EncodedString())
        }
        return .object(body)
    }
}
