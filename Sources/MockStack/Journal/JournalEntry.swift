import Foundation
import MockStackCore

/// One request an app answered, as the journal keeps it: the request itself (its body cut at
/// the capture limit), the multipart parts when there were any, and how it was answered. JSON
/// is rendered only when a test asks for it, so recording costs a few copies.
struct JournalEntry: Sendable {
    /// A multipart part, described.
    struct Part: Sendable {
        var name: String
        var fileName: String?
        var contentType: String?
        var size: Int
    }

    /// Increasing from 1, never reused: `since=` takes one.
    var id: Int
    var time: Date
    var app: String
    var session: String?
    var request: HTTPRequest
    /// The full body's size (the kept body may be shorter).
    var bodySize: Int
    var parts: [Part]?
    var operation: String?
    var stub: String?
    var status: Int
    var duration: Duration

    /// `{"id", "time", "app", "session", "method", "path", "query", "headers", "body", "parts",
    /// "operation", "stub", "status", "durationMs"}`; the body as text when it is UTF-8 of a
    /// textual type, else base64, with its full size and whether it was cut.
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
        var headers = JSONObject()
        for field in request.headers {
            headers[field.name] = .string(headers[field.name]?.stringValue.map { $0 + ", " + field.value } ?? field.value)
        }
        object["headers"] = .object(headers)
        object["body"] = bodyJSON
        if let parts {
            object["parts"] = .array(parts.map { part in
                ["name": .string(part.name), "fileName": part.fileName.map(JSONValue.string) ?? .null,
                 "contentType": part.contentType.map(JSONValue.string) ?? .null, "size": .number(JSONNumber(part.size))]
            })
        }
        object["operation"] = operation.map(JSONValue.string) ?? .null
        object["stub"] = stub.map(JSONValue.string) ?? .null
        object["status"] = .number(JSONNumber(status))
        let (seconds, attoseconds) = duration.components
        // Milliseconds to the microsecond.
        object["durationMs"] = .number(JSONNumber(((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000))
        return .object(object)
    }

    private var bodyJSON: JSONValue {
        guard bodySize > 0 else { return .null }
        let kept = request.body
        var body: JSONObject = ["size": .number(JSONNumber(bodySize)), "truncated": .bool(kept.count < bodySize)]
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        let textual = type.isEmpty || type.hasPrefix("text/") || type.contains("json") || type.contains("xml") || type.contains("x-www-form-urlencoded")
        if textual, let text = String(validating: kept, as: UTF8.self) {
            body["text"] = .string(text)
        } else {
            body["base64"] = .string(Data(kept).base64EncodedString())
        }
        return .object(body)
    }
}
