import MockStackCore

/// A `static` app: one route per method and path, its body kept byte for byte in a file of its
/// own (`"verbatim": true` when a JSON body is not already the compact form the static app
/// would re-encode it to), its status, content type and the header fields worth replaying.
struct StaticDraft: AppDraft {
    static let kind = RecordingKind.static
    /// Header fields not replayed: the static app writes its own `Content-Type` and `ETag`,
    /// the transport its `Date`; the rest describe the upstream, not the answer.
    static let unreplayedHeaders: Set<String> = [
        "content-type", "etag", "date", "server", "content-length", "transfer-encoding",
        "connection", "keep-alive", "content-encoding", "x-powered-by",
    ]

    /// Whether a field is kept for the replay: not one of ``unreplayedHeaders``, and one a fixture
    /// may hold (no control bytes, nothing past ASCII), so that the folder written loads.
    static func isReplayable(_ field: (name: String, value: String)) -> Bool {
        !unreplayedHeaders.contains(field.name.lowercased())
            && ConfiguredHeaderText.problem(name: field.name, value: field.value) == nil
    }

    private var routes: [JSONObject] = []
    /// `METHOD path` → index in ``routes``.
    private var index: [String: Int] = [:]
    private var fileNames: Set<String> = []
    let folder: AppFolder

    init(folder: AppFolder, existing: ExistingManifest?) {
        self.folder = folder
        for case .object(let route) in existing?.root["routes"]?.arrayValue ?? [] {
            let key = (route["method"]?.stringValue ?? "GET").uppercased() + " " + (route["path"]?.stringValue ?? "")
            index[key] = routes.count
            routes.append(route)
            if let name = route["fixture"]?.stringValue { fileNames.insert(name) }
        }
    }

    func manifest() -> JSONObject {
        ["routes": .array(routes.map(JSONValue.object))]
    }

    mutating func add(_ request: HTTPRequest, _ response: HTTPResponse, masking: SecretMasking) -> DraftChange {
        // HEAD is answered wherever GET is; a 304 answers a question the replay asks itself.
        guard request.method.isServed, request.method != .head, response.status != 304, response.status >= 200 else {
            return .unchanged
        }
        let key = request.method.rawValue + " " + request.path
        let contentType = response.headers["Content-Type"].flatMap {
            ConfiguredHeaderText.problem(name: "Content-Type", value: $0) == nil ? $0 : nil
        }
        let body = masking.body(response.body, contentType: contentType)
        let headers = masking.headers(response.headers.fields.map { ($0.name, $0.value) }).filter(Self.isReplayable)
        if let at = index[key] {
            let route = routes[at]
            let kept = route["fixture"]?.stringValue.flatMap { folder.read($0) }
            let sameStatus = (route["status"]?.intValue ?? 200) == response.status
            let sameType = route["contentType"]?.stringValue == contentType
            if sameStatus, sameType, kept == body { return .unchanged }
            let shown = request.query.map { request.path + "?" + $0 } ?? request.path
            return DraftChange(conflicts: [
                "\(request.method.rawValue) \(shown) answered \(response.status) (\(body.count) bytes), "
                    + """
                    but the app already answers \(request.method.rawValue) \(request.path) with \
                    \(route["status"]?.intValue ?? 200) 
                    """
                    + """
                    (\(kept?.count ?? 0) bytes) from \(route["fixture"]?.stringValue ?? "?") (static routes match the \
                    path alone); kept that one
                    """
            ])
        }
        let name = uniqueFileName(
            request.method.rawValue.lowercased() + "-" + AppFolder.fileName(request.path), contentType: contentType)
        var route: JSONObject = [
            "method": .string(request.method.rawValue), "path": .string(request.path), "fixture": .string(name),
        ]
        if response.status != 200 { route["status"] = .number(JSONNumber(response.status)) }
        if let contentType { route["contentType"] = .string(contentType) }
        if !headers.isEmpty {
            route["headers"] = .object(JSONObject(headers.map { ($0.name, JSONValue.string($0.value)) }))
        }
        if Self.isReencoded(body, contentType: contentType ?? FixtureResponse.contentType(forFileName: name)) {
            route["verbatim"] = .bool(true)
        }
        index[key] = routes.count
        routes.append(route)
        return DraftChange(files: [(name, body)])
    }

    /// Whether the static app would serve other bytes than these were it not told otherwise:
    /// it re-encodes JSON (compactly) when the content type says JSON.
    static func isReencoded(_ body: [UInt8], contentType: String) -> Bool {
        guard contentType.hasPrefix("application/json") else { return false }
        guard let parsed = try? JSONParser().parse(body).root else { return true }
        return parsed.encoded() != body
    }

    private mutating func uniqueFileName(_ stem: String, contentType: String?) -> String {
        let ext = AppFolder.fileExtension(for: contentType)
        var name = stem + "." + ext
        var count = 1
        while fileNames.contains(name) || (folder.exists(name)) {
            count += 1
            name = stem + "-\(count)." + ext
        }
        fileNames.insert(name)
        return name
    }
}
