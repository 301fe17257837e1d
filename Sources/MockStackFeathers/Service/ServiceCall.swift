import MockStackAuth
import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One REST call on a memory service, as the adapter's public methods run it
/// (docs/feathers.md#rest, docs/feathers.md#queries, docs/feathers.md#the-memory-store): the
/// query schema's coercion first (all methods, as generated apps validate every query), then the
/// data schema's check (as the `validateData` hooks run before the method), the multi checks,
/// the query's filters (not for `create`, which ignores the query but for `$select`), then the
/// store. What `create` and `update` store passes through the data resolver; for the
/// authentication entity the secret field is hashed on the way in and never returned.
struct ServiceCall {
    let service: MemoryService
    /// The signed-in caller's record, for a data resolver that reads it.
    var user: JSONObject? = nil
    var clock: @Sendable () -> Date = { Date() }

    private var options: ServiceOptions { service.options }
    private var dialect: FeathersDialect { options.dialect }

    /// The status and the result.
    func perform(
        _ method: ServiceMethod, id: String?, body: JSONValue, query raw: JSONObject
    ) throws(FeathersError) -> (Int, JSONValue) {
        let query = try options.querySchema?.coerce(raw) ?? raw
        try options.dataSchema?.validate(body, for: method)
        switch method {
        case .find:
            return (200, try service.find(FeathersQuery(query, dialect: dialect)).json.mapRecords(hidingSecret))
        case .get:
            return (200, .object(hidingSecret(try service.get(id ?? "", FeathersQuery(query, dialect: dialect)))))
        case .create:
            let selection = FeathersQuery.selecting(query)
            if case .array(let items) = body {
                guard options.multi.contains(.create) else { throw FeathersError.multiNotAllowed("create") }
                var created: [JSONValue] = []
                for item in items {
                    created.append(
                        .object(
                            hidingSecret(try service.create(storing(resolving(item.objectValue ?? [:])), selection))))
                }
                return (201, .array(created))
            }
            return (
                201, .object(hidingSecret(try service.create(storing(resolving(body.objectValue ?? [:])), selection)))
            )
        case .update:
            guard let id else { throw FeathersError.replaceMultiple }
            if dialect == .v5, case .array = body { throw FeathersError.replaceMultiple }
            return (
                200,
                .object(
                    hidingSecret(
                        try service.update(
                            id, storing(resolving(body.objectValue ?? [:])), FeathersQuery(query, dialect: dialect))
                    ))
            )
        case .patch:
            // The query is checked before the multi rule, as the adapter sanitizes it first.
            let filters = try FeathersQuery(query, dialect: dialect)
            if id == nil, !options.multi.contains(.patch) { throw FeathersError.multiNotAllowed("patch") }
            let patched = try service.patch(id, storing(body.objectValue ?? [:]), filters).map(hidingSecret)
            return (200, id == nil ? .array(patched.map(JSONValue.object)) : .object(patched[0]))
        case .remove:
            let filters = try FeathersQuery(query, dialect: dialect)
            if id == nil, !options.multi.contains(.remove) { throw FeathersError.multiNotAllowed("remove") }
            let removed = try service.remove(id, filters).map(hidingSecret)
            return (200, id == nil ? .array(removed.map(JSONValue.object)) : .object(removed[0]))
        }
    }

    /// A whole record as the service's data resolver completes it.
    private func resolving(_ data: JSONObject) -> JSONObject {
        guard let resolver = options.dataResolver else { return data }
        return resolver.resolve(data, user: user, now: clock())
    }

    /// The body as stored: the secret field hashed, as a generated app's `passwordHash` resolver does.
    private func storing(_ data: JSONObject) -> JSONObject {
        guard let field = options.secretField, let password = data[field]?.stringValue else { return data }
        var stored = data
        stored[field] = .string(PasswordHasher.hash(password))
        return stored
    }

    private func hidingSecret(_ record: JSONObject) -> JSONObject { service.external(record) }
}

extension FeathersQuery {
    /// `create`'s view of the query: only `$select` (the memory adapter reads nothing else and
    /// checks nothing).
    static func selecting(_ query: JSONObject) -> FeathersQuery {
        FeathersQuery(select: query["$select"])
    }
}

extension JSONValue {
    /// The records of a find result (a list or a page's `data`) passed through a transform.
    fileprivate func mapRecords(_ transform: (JSONObject) -> JSONObject) -> JSONValue {
        switch self {
        case .array(let items): return .array(items.map { $0.objectValue.map { .object(transform($0)) } ?? $0 })
        case .object(var page):
            if case .array(let items)? = page["data"] {
                page["data"] = .array(items.map { $0.objectValue.map { .object(transform($0)) } ?? $0 })
            }
            return .object(page)
        default: return self
        }
    }
}
