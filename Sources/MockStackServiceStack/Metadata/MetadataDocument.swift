import MockStackCore

/// `GET /types/metadata` (docs/servicestack.md#metadata): the app's metadata document as ServiceStack.Text writes
/// it, `config.baseUrl` pointing back at the request's host, optional booleans only when true,
/// and types and operations filtered by `IncludeTypes` / `ExcludeTypes`.
public struct MetadataDocument: Sendable {
    public let metadata: MetadataTypes

    public init(metadata: MetadataTypes) {
        self.metadata = metadata
    }

    /// Which type names each type and operation refers to. Built per request that uses
    /// `IncludeTypes` (rare), so start-up does not pay for it.
    private func references() -> [String: Set<String>] {
        var references: [String: Set<String>] = [:]
        for type in metadata.types {
            references[Self.key(type.name), default: []].formUnion(Self.referencedNames(type))
        }
        for operation in metadata.operations {
            var names = Self.referencedNames(operation.request)
            if let response = operation.response {
                names.insert(Self.key(response.name))
                references[Self.key(response.name), default: []].formUnion(Self.referencedNames(response))
            }
            if let returnType = operation.returnType { names.formUnion(Self.names(in: returnType.reference)) }
            references[Self.key(operation.name), default: []].formUnion(names)
        }
        return references
    }

    /// The document for a request: query options applied, `baseUrl` set to `baseURL`.
    public func render(query: [(name: String, value: String)], baseURL: String) -> [UInt8] {
        let selection = Selection(query: query, document: self)
        var config = metadata.config
        config["baseUrl"] = .string(baseURL)
        let types = metadata.types.filter { selection.includesType($0.name) }.map { Self.pruned($0.json) }
        let operations = metadata.operations.filter { selection.includesOperation($0) }.map {
            JSONValue.object(Self.pruned($0.json))
        }
        let document: JSONValue = [
            "config": .object(config),
            "namespaces": .array(metadata.namespaces.map { .string($0) }),
            "types": .array(types.map { .object($0) }),
            "operations": .array(operations),
        ]
        return document.encoded()
    }

    // MARK: Selection

    /// What `IncludeTypes` and `ExcludeTypes` select.
    struct Selection {
        var included: Set<String>?
        var excluded: Set<String> = []
        var excludeServices = false
        var excludeTypes = false

        init(query: [(name: String, value: String)], document: MetadataDocument) {
            for (name, value) in query {
                switch name.lowercased() {
                case "includetypes":
                    let names = document.expand(Self.split(value))
                    included = (included ?? []).union(names)
                case "excludetypes":
                    for item in Self.split(value) {
                        switch item.lowercased() {
                        case "services": excludeServices = true
                        case "types": excludeTypes = true
                        default: excluded.insert(MetadataDocument.key(item))
                        }
                    }
                default: break
                }
            }
        }

        func includesType(_ name: String) -> Bool {
            let key = MetadataDocument.key(name)
            return !excludeTypes && !excluded.contains(key) && (included?.contains(key) ?? true)
        }

        func includesOperation(_ operation: MetadataOperation) -> Bool {
            let key = MetadataDocument.key(operation.name)
            return !excludeServices && !excluded.contains(key) && (included?.contains(key) ?? true)
        }

        /// Comma-separated, but `{tag1,tag2}` stays one item.
        static func split(_ value: String) -> [String] {
            var items: [String] = []
            var current = ""
            var depth = 0
            for character in value {
                if character == "{" { depth += 1 }
                if character == "}" { depth = max(0, depth - 1) }
                if character == ",", depth == 0 {
                    items.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
            items.append(current)
            return items.map { String($0.trimmingASCIISpace()) }.filter { !$0.isEmpty }
        }
    }

    /// The type names an `IncludeTypes` list selects: `Name`, `Name.*` (with everything it
    /// references), `*.Name` (with everything referencing it), `Namespace/*`, `{tag,…}`.
    func expand(_ items: [String]) -> Set<String> {
        let references = references()
        var selected: Set<String> = []
        for item in items {
            if item.hasPrefix("{"), item.hasSuffix("}") {
                let tags = Set(
                    item.dropFirst().dropLast().split(separator: ",").map { $0.trimmingASCIISpace().lowercased() })
                for operation in metadata.operations
                where operation.tags.contains(where: { tags.contains($0.lowercased()) }) {
                    selected.formUnion(Self.closure(of: Self.key(operation.name), in: references))
                }
            } else if item.hasSuffix(".*") {
                selected.formUnion(Self.closure(of: Self.key(String(item.dropLast(2))), in: references))
            } else if item.hasPrefix("*.") {
                let target = Self.key(String(item.dropFirst(2)))
                selected.insert(target)
                for (name, names) in references where names.contains(target) { selected.insert(name) }
            } else if item.hasSuffix("/*") || item.hasSuffix("/ *") {
                // `/ *` is how a Swift header writes `/*` (which would open a nested comment),
                // so a file updated from its own header selects the same namespace.
                let prefix = String(item.dropLast(item.hasSuffix("/*") ? 2 : 3))
                for type in metadata.types where type.namespace?.hasPrefix(prefix) == true {
                    selected.insert(Self.key(type.name))
                }
                for operation in metadata.operations where operation.request.namespace?.hasPrefix(prefix) == true {
                    selected.insert(Self.key(operation.name))
                }
            } else {
                selected.insert(Self.key(item))
            }
        }
        return selected
    }

    /// A type and everything it references, transitively.
    private static func closure(of name: String, in references: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = [name]
        var pending = [name]
        while let next = pending.popLast() {
            for referenced in references[next] ?? [] where seen.insert(referenced).inserted {
                pending.append(referenced)
            }
        }
        return seen
    }

    // MARK: Helpers

    /// Names compare without the generic arity (``QueryResponse`1`` is `QueryResponse`).
    static func key(_ name: String) -> String { TypeReference.stripArity(name) }

    /// What a type refers to: its base and its arguments, the interfaces it implements (as
    /// ServiceStack includes a request's interfaces with it), and its properties' types.
    private static func referencedNames(_ type: MetadataType) -> Set<String> {
        var names: Set<String> = Set(type.implements.map { key($0.name) })
        if let base = type.inherits { names.formUnion(Self.names(in: base.reference)) }
        for property in type.properties { names.formUnion(Self.names(in: property.type)) }
        return names
    }

    private static func names(in reference: TypeReference) -> Set<String> {
        switch reference {
        case .array(let element): return names(in: element)
        case .named(let name, let arguments): return arguments.reduce(into: [key(name)]) { $0.formUnion(names(in: $1)) }
        }
    }

    /// The object without `false` and `null` members, at every depth: metadata writes optional
    /// booleans only when they are true.
    static func pruned(_ object: JSONObject) -> JSONObject {
        var result = JSONObject()
        for member in object {
            switch member.value {
            case .bool(false), .null: continue
            default: result[member.key] = pruned(member.value)
            }
        }
        return result
    }

    private static func pruned(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): .object(pruned(object))
        case .array(let elements): .array(elements.map(pruned))
        default: value
        }
    }
}
