import MockStackCore

/// A `servicestack` app: the target's `/types/metadata` (fetched when the recording starts)
/// answers routing, binding and `/types`; each answer that came back is kept under `recorded`,
/// per request (method, path, properties: ``RecordedRequestKey``), its body in a file of its own
/// under `recorded/`, byte for byte. A request that matches none is answered by the emulation.
struct ServiceStackDraft: AppDraft {
    static let kind = RecordingKind.servicestack
    static let metadataFile = "metadata.json"

    private var top = JSONObject()
    private var recorded: [JSONObject] = []
    private var keys: [RecordedRequestKey] = []
    private var fileNames: Set<String> = []
    let folder: AppFolder

    /// - Parameter unboundRouteVariables: route variables of the metadata that no request
    ///   property binds, named under `operations` (where the manifest does not already say)
    ///   so that the app loads.
    init(
        folder: AppFolder, existing: ExistingManifest?,
        unboundRouteVariables: [(operation: String, variable: String)] = []
    ) {
        self.folder = folder
        for member in existing?.root ?? [:]
        where !["name", "kind", "mount", "recorded", "description"].contains(member.key) {
            top[member.key] = member.value
        }
        var operations = top["operations"]?.objectValue ?? [:]
        for (operation, variable) in unboundRouteVariables {
            var entry = operations[operation]?.objectValue ?? [:]
            var names = entry["unboundRouteVariables"]?.arrayValue ?? []
            guard !names.contains(.string(variable)) else { continue }
            names.append(.string(variable))
            entry["unboundRouteVariables"] = .array(names)
            operations[operation] = .object(entry)
        }
        if !operations.isEmpty { top["operations"] = .object(operations) }
        for case .object(let entry) in existing?.root["recorded"]?.arrayValue ?? [] {
            recorded.append(entry)
            keys.append(Self.key(of: entry))
            if let name = entry["fixture"]?.stringValue { fileNames.insert(name) }
        }
    }

    static func key(of entry: JSONObject) -> RecordedRequestKey {
        var properties: [String: String] = [:]
        for member in entry["request"]?.objectValue ?? [:] {
            properties[member.key.lowercased()] = member.value.stringValue ?? ""
        }
        return RecordedRequestKey(
            method: entry["method"]?.stringValue ?? "GET", path: entry["path"]?.stringValue ?? "/",
            properties: properties)
    }

    func manifest() -> JSONObject {
        var manifest = top
        manifest["metadata"] = .string(Self.metadataFile)
        manifest["recorded"] = .array(recorded.map(JSONValue.object))
        return manifest
    }

    mutating func add(_ request: HTTPRequest, _ response: HTTPResponse, masking: SecretMasking) -> DraftChange {
        let lower = request.path.lowercased()
        // `/types…` and `/metadata` come from the metadata; a 304 answers a question the replay asks itself.
        guard request.method.isServed, request.method != .head, request.method != .options, response.status >= 200,
            response.status != 304,
            !lower.hasPrefix("/types"), !lower.hasPrefix("/metadata")
        else { return .unchanged }
        var key = RecordedRequestKey(request)
        let named = RecordedRequestKey.namedValues(of: request).map { pair -> (name: String, value: String) in
            masking.masks && SecretMasking.isSecret(memberName: pair.name) ? (pair.name, SecretMasking.mask) : pair
        }
        for (name, value) in named { key.properties[name.lowercased()] = value }
        let contentType = response.headers["Content-Type"].flatMap {
            ConfiguredHeaderText.problem(name: "Content-Type", value: $0) == nil ? $0 : nil
        }
        let body = masking.body(response.body, contentType: contentType)
        if let at = keys.firstIndex(where: { $0.matches(RecordedRequestKey(request)) || $0 == key }) {
            let entry = recorded[at]
            let kept = entry["fixture"]?.stringValue.flatMap { folder.read($0) }
            if (entry["status"]?.intValue ?? 200) == response.status, kept == body { return .unchanged }
            return DraftChange(conflicts: [
                "\(request.methodName) \(request.path) answered \(response.status) (\(body.count) bytes) to the "
                    + """
                    request recorded before, which the app answers \(entry["status"]?.intValue ?? 200) \
                    (\(kept?.count ?? 0) bytes) 
                    """
                    + "from \(entry["fixture"]?.stringValue ?? "?"); kept that one"
            ])
        }
        let stem = "recorded/" + request.methodName.lowercased() + "-" + AppFolder.fileName(request.path)
        let name = uniqueFileName(stem, contentType: contentType)
        var entry: JSONObject = ["method": .string(request.methodName), "path": .string(request.path)]
        entry["request"] = .object(JSONObject(named.map { ($0.name, JSONValue.string($0.value)) }))
        entry["fixture"] = .string(name)
        if response.status != 200 { entry["status"] = .number(JSONNumber(response.status)) }
        if let contentType { entry["contentType"] = .string(contentType) }
        let headers = masking.headers(response.headers.fields.map { ($0.name, $0.value) })
            .filter(StaticDraft.isReplayable)
        if !headers.isEmpty {
            entry["headers"] = .object(JSONObject(headers.map { ($0.name, JSONValue.string($0.value)) }))
        }
        recorded.append(entry)
        keys.append(key)
        return DraftChange(files: [(name, body)])
    }

    private mutating func uniqueFileName(_ stem: String, contentType: String?) -> String {
        let ext = AppFolder.fileExtension(for: contentType)
        var name = stem + "." + ext
        var count = 1
        while fileNames.contains(name) || folder.exists(name) {
            count += 1
            name = stem + "-\(count)." + ext
        }
        fileNames.insert(name)
        return name
    }
}
