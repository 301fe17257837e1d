public import Foundation
public import MockStackJSON

/// One request the server journaled, as `GET /__mockstack/requests` lists it.
public struct RecordedRequest: Sendable, Equatable {
    /// Increasing from 1 in the journal that listed it (the server's, or a session's own).
    public var id: Int
    /// The app the request reached; nil when no app is mounted at its path.
    public var app: String?
    /// The session the request was made in; nil outside sessions.
    public var session: String?
    /// The method as sent (`GET`).
    public var method: String
    /// The path as sent (relative to the session, in a session).
    public var path: String
    /// The raw query string, still percent-encoded.
    public var query: String?
    /// Header names as sent; repeated headers joined with ", ".
    public var headers: [String: String]
    /// The body as text when it was textual UTF-8 (cut at the journal's capture limit).
    public var bodyText: String?
    /// The body's bytes, however they were kept.
    public var body: Data?
    /// The whole body's size, even when the kept part is shorter.
    public var bodySize: Int
    /// Multipart parts, described.
    public var parts: [Part]
    /// The operation, service method or fixture that answered.
    public var operation: String?
    /// The runtime stub that answered instead, if one did.
    public var stub: String?
    /// The status of the answer (or of the stub's answer) as the client got it: 0 when a fault
    /// kept every status line from it (``fault`` is `reset`, `empty`, `hang` or
    /// `random-then-close`).
    public var status: Int
    /// The answer's body as text, when it was textual.
    public var responseText: String?
    /// The fault that broke the answer on purpose, if any (`reset`, `truncate`, …).
    public var fault: String?
    /// Whether nothing took it: no app mounted at its path, no route in the app, no stub.
    public var unmatched: Bool
    /// Whether it came over TLS, to the HTTPS port (`serve --https-port`).
    public var isSecure: Bool
    /// For a request nothing took, up to three mounted routes closest to its path: what it may
    /// have meant.
    public var nearest: [NearestRoute]
    /// Everything the journal said, for what the typed fields leave out.
    public var json: JSONValue

    /// One part of a multipart body: its field, file name, type and size (never its bytes).
    public struct Part: Sendable, Equatable {
        /// The form field's name.
        public var name: String
        /// The `filename` of its `Content-Disposition`, for a file.
        public var fileName: String?
        /// Its `Content-Type`, when it had one.
        public var contentType: String?
        /// Its body's size in bytes.
        public var size: Int
    }

    /// Reads one journal entry as the control plane writes it; missing fields read as empty.
    public init(_ json: JSONValue) {
        self.json = json
        id = json["id"]?.intValue ?? 0
        app = json["app"]?.stringValue
        session = json["session"]?.stringValue
        method = json["method"]?.stringValue ?? ""
        path = json["path"]?.stringValue ?? ""
        query = json["query"]?.stringValue
        var headers: [String: String] = [:]
        for (name, value) in json["headers"]?.objectValue ?? [:] { headers[name] = value.stringValue }
        self.headers = headers
        let body = json["body"]
        bodyText = body?["text"]?.stringValue
        self.body = bodyText.map { Data($0.utf8) } ?? body?["base64"]?.stringValue.flatMap { Data(base64Encoded: $0) }
        bodySize = body?["size"]?.intValue ?? 0
        parts =
            json["parts"]?.arrayValue?.map { part in
                Part(
                    name: part["name"]?.stringValue ?? "", fileName: part["fileName"]?.stringValue,
                    contentType: part["contentType"]?.stringValue, size: part["size"]?.intValue ?? 0)
            } ?? []
        operation = json["operation"]?.stringValue
        stub = json["stub"]?.stringValue
        status = json["status"]?.intValue ?? 0
        responseText = json["response"]?["body"]?["text"]?.stringValue
        fault = json["delivery"]?["fault"]?.stringValue
        unmatched = json["unmatched"]?.boolValue ?? false
        isSecure = json["secure"]?.boolValue ?? false
        nearest = json["nearest"]?.arrayValue?.map(NearestRoute.init) ?? []
    }

    /// A header's value, its name matched in any case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// The body parsed as JSON, when it is.
    public var bodyJSON: JSONValue? {
        bodyText.flatMap { try? JSONParser().parse(Array($0.utf8)).root }
    }
}
