import MockStackCore

/// A `feathers` app: the services seen, the records they answered with as each one's seed, and
/// the pagination `find` answered with. A path's service is told by its answer: a `find` (an
/// array, or a page `{total, limit, skip, data}`) or a `create` names the whole path; a `get`,
/// `update`, `patch` or `remove` ends in the record's id. `authentication` and `socket.io` are
/// not services; errors add nothing.
struct FeathersDraft: AppDraft {
    static let kind = RecordingKind.feathers
    static let notServices: Set<String> = ["authentication", "socket.io"]

    struct Service {
        var idField = "id"
        var paginate: (default: Int, max: Int)?
        var multi = false
        var seed: String
        var records: [JSONValue] = []
        /// Id (as JSON text) → index in ``records``.
        var ids: [String: Int] = [:]
        /// Ids the folder held before this recording: a different record under one is a conflict.
        var recordedBefore: Set<String> = []
        /// The manifest's entry as read, its other keys kept.
        var options = JSONObject()
    }

    private var services: [String: Service] = [:]
    private var order: [String] = []
    private var top = JSONObject()

    init(folder: AppFolder, existing: ExistingManifest?) {
        if let existing {
            for member in existing.root
            where !["name", "kind", "mount", "services", "description"].contains(member.key) {
                top[member.key] = member.value
            }
        }
        for member in existing?.root["services"]?.objectValue ?? [:] {
            var service = Service(seed: member.value["seed"]?.stringValue ?? Self.seedName(member.key))
            service.options = member.value.objectValue ?? [:]
            service.idField = member.value["id"]?.stringValue ?? "id"
            if let page = member.value["paginate"], let first = page["default"]?.intValue,
                let most = page["max"]?.intValue
            {
                service.paginate = (first, most)
            }
            service.multi = member.value["multi"] != nil
            if let bytes = folder.read(service.seed), let records = try? JSONParser().parse(bytes).root.arrayValue {
                for record in records { service.add(record) }
                service.recordedBefore = Set(service.ids.keys)
            }
            services[member.key] = service
            order.append(member.key)
        }
    }

    static func seedName(_ path: String) -> String { AppFolder.fileName(path) + ".json" }

    func manifest() -> JSONObject {
        var manifest = top
        if manifest["dialect"] == nil { manifest["dialect"] = "v5" }
        var listed = JSONObject()
        for path in order {
            guard let service = services[path] else { continue }
            var options = service.options
            if service.idField != "id" { options["id"] = .string(service.idField) }
            if let paginate = service.paginate {
                options["paginate"] = [
                    "default": .number(JSONNumber(paginate.default)), "max": .number(JSONNumber(paginate.max)),
                ]
            }
            if service.multi, options["multi"] == nil { options["multi"] = .array(["create"]) }
            options["seed"] = .string(service.seed)
            listed[path] = .object(options)
        }
        manifest["services"] = .object(listed)
        return manifest
    }

    mutating func add(_ request: HTTPRequest, _ response: HTTPResponse, masking: SecretMasking) -> DraftChange {
        guard (200..<300).contains(response.status), let parsed = try? JSONParser().parse(response.body).root else {
            return .unchanged
        }
        let answer = masking.json(parsed).0
        let segments = request.path.split(separator: "/").map { PercentDecoding.decode($0, plusAsSpace: false) }
        guard let first = segments.first, !Self.notServices.contains(first) else { return .unchanged }
        let whole = segments.joined(separator: "/")
        var path = whole
        var records: [JSONValue] = []
        var page: Int?
        switch (request.method, answer) {
        case (.get, .array(let items)):
            records = items
        case (.get, .object(let object))
        where object["data"]?.arrayValue != nil && object["total"] != nil && object["limit"] != nil:
            records = object["data"]?.arrayValue ?? []
            page = object["limit"]?.intValue
        case (.post, .array(let items)):
            records = items
        case (.post, .object):
            records = [answer]
        case (.get, .object), (.put, .object), (.patch, .object), (.delete, .object):
            guard segments.count > 1 else { return .unchanged }
            path = segments.dropLast().joined(separator: "/")
            records = [answer]
        default:
            return .unchanged
        }
        var service = services[path] ?? Service(seed: Self.seedName(path))
        if services[path] == nil { order.append(path) }
        if request.method == .post, case .array = answer { service.multi = true }
        if let page {
            let asked = QueryParameters(request.query)["$limit"]
            let most = max(service.paginate?.max ?? page, page)
            service.paginate = (asked == nil ? page : (service.paginate?.default ?? page), most)
        }
        if let sample = records.first, sample[service.idField] == nil, sample["_id"] != nil { service.idField = "_id" }
        var conflicts: [String] = []
        for record in records {
            if let conflict = service.merge(record, path: path) { conflicts.append(conflict) }
        }
        services[path] = service
        return DraftChange(files: [(service.seed, PrettyJSON.bytes(.array(service.records)))], conflicts: conflicts)
    }
}

extension FeathersDraft.Service {
    /// Adds or replaces a record by its id; one without an id is added.
    mutating func add(_ record: JSONValue) {
        guard let id = record[idField] else { return records.append(record) }
        let key = String(decoding: id.encoded(), as: UTF8.self)
        if let at = ids[key] {
            records[at] = record
        } else {
            ids[key] = records.count
            records.append(record)
        }
    }

    /// ``add(_:)``, except over a record the folder held before, which is kept: a conflict.
    mutating func merge(_ record: JSONValue, path: String) -> String? {
        if let id = record[idField] {
            let key = String(decoding: id.encoded(), as: UTF8.self)
            if recordedBefore.contains(key), let at = ids[key], records[at] != record {
                return
                    """
                    \(path) \(idField) \(key) came back as \
                    \(String(decoding: record.encoded().prefix(120), as: UTF8.self)), 
                    """
                    + """
                    but \(seed) already holds \(String(decoding: records[at].encoded().prefix(120), as: UTF8.self)); \
                    kept that one
                    """
            }
        }
        add(record)
        return nil
    }
}
