import MockStackCore

/// The types a `/types/python`, `/types/typescript` or `/types/php` file declares, in the order
/// ServiceStack's script generators write them (docs/servicestack.md#generated-dtos): the metadata's types with
/// each base before the types that extend it, then the responses, then the requests; then, walking
/// that list, each type's dependencies (return type, base or its type arguments, property types)
/// pulled in before it.
///
/// Swift keeps its own order (requests, responses, then types); this is the one model the
/// Python, TypeScript and PHP writers share, so that they lay a file out the same way.
struct DTOLayout {
    /// What a declared type is to the file: a request (with its operation), a response, or any other type.
    enum Role {
        case request(MetadataOperation)
        case response
        case type
    }

    struct Entry {
        let type: MetadataType
        let role: Role
    }

    /// The entries, in file order.
    let entries: [Entry]
    /// Every type the metadata declares, by .NET name (the first of a name), selected or not:
    /// where a request's bases are looked up.
    let typesByName: [String: MetadataType]
    /// The interfaces a class may name (by full name): those the metadata declares, `IReturn`,
    /// `IReturnVoid` and ServiceStack's markers. Others (server-side ones such as
    /// `IRequiresRequestStream`) are not part of the client's types and are left out, as
    /// ServiceStack's metadata leaves them out.
    let interfaces: Set<String>

    /// - Parameters:
    ///   - leavingOut: names (with arity) the client library defines: neither written nor
    ///     requested (Python's `servicestack` package);
    ///   - addsInterfaces: declare `IReturn<T>`, `IReturnVoid` and the marker interfaces the
    ///     types implement, first, and `KeyValuePair<TKey, TValue>` when a member uses it, as
    ///     ServiceStack's `/types/typescript` does;
    ///   - addsServiceStackTypes: false (`AddServiceStackTypes=False`): leave out the types of
    ///     ServiceStack's own namespaces.
    init(
        metadata: MetadataTypes, selection: MetadataDocument.Selection, leavingOut: Set<String> = [],
        addsInterfaces: Bool = false,
        addsServiceStackTypes: Bool = true
    ) {
        func kept(_ type: MetadataType) -> Bool {
            type.name != "Service" && !leavingOut.contains(type.name)
                && (addsServiceStackTypes || !SwiftGenerator.serviceStackNamespaces.contains(type.namespace ?? ""))
        }
        let operations = metadata.operations.filter { kept($0.request) }
        var byName: [String: MetadataType] = [:]
        for type in metadata.types where byName[type.name] == nil { byName[type.name] = type }
        typesByName = byName
        var types = metadata.types
        if addsInterfaces {
            // Met as ServiceStack meets them: over the types with their bases first.
            types =
                Self.builtInInterfaces(for: Self.basesFirst(types).map(\.type), operations: operations) + types
                + Self.exportedSystemTypes(for: types, operations: operations)
        }

        // Bases first, then responses, then requests; each type once. A type's identity (its
        // full name) is built once.
        var ordered = Self.basesFirst(types)
        var seen = Set(ordered.map(\.identity))
        func add(_ type: MetadataType, _ identity: String) {
            if seen.insert(identity).inserted { ordered.append((type, identity)) }
        }
        let requestIdentities = operations.map { Self.identity($0.request) }
        var responses: Set<String> = []
        for operation in operations {
            guard let response = operation.response else { continue }
            let identity = Self.identity(response)
            responses.insert(identity)
            add(response, identity)
        }
        for (operation, identity) in zip(operations, requestIdentities) { add(operation.request, identity) }

        // A request is written when its operation is selected (never as a plain type when it is not).
        var requests: [String: MetadataOperation] = [:]
        for (operation, identity) in zip(operations, requestIdentities) { requests[identity] = operation }
        let selected = ordered.filter { type, identity in
            guard kept(type) else { return false }
            if let operation = requests[identity] { return selection.includesOperation(operation) }
            return selection.includesType(type.name)
        }
        interfaces = Set(
            types.filter(\.isInterface).map(\.name) + Self.markerInterfaces.map(\.name) + ["IReturn`1", "IReturnVoid"])
        var returnTypes: [String: MetadataTypeName] = [:]
        for operation in operations {
            if let returned = operation.returnType { returnTypes[operation.request.name] = returned }
        }
        entries = Self.orderedByDependencies(selected, returnTypes: returnTypes).map { type, identity in
            if let operation = requests[identity] { return Entry(type: type, role: .request(operation)) }
            return Entry(type: type, role: responses.contains(identity) ? .response : .type)
        }
    }

    /// What ServiceStack's client packages (Python's and Dart's `servicestack`, PHP's) define, by
    /// full .NET name: the return and marker interfaces and its built-in client DTOs
    /// (`BuiltInClientDtos`), which those files never write, leaving out the operations on them.
    static let clientLibraryTypes: Set<String> = [
        "IReturn`1", "IReturnVoid", "IGet", "IPost", "IPut", "IDelete", "IPatch", "IOptions", "IMeta", "IHasSessionId",
        "IHasBearerToken", "IHasVersion", "ICreateDb`1", "IUpdateDb`1", "IPatchDb`1", "IDeleteDb`1", "ISaveDb`1",
        "ResponseStatus", "ResponseError", "EmptyResponse", "IdResponse", "StringResponse", "StringsResponse",
        "QueryBase", "QueryData`1", "QueryDb`1", "QueryDb`2", "QueryResponse`1", "KeyValuePair`2", "Tuple`1",
        "Tuple`2", "Tuple`3", "Tuple`4", "Authenticate", "AuthenticateResponse", "Register", "RegisterResponse",
        "AssignRoles", "AssignRolesResponse", "UnAssignRoles", "UnAssignRolesResponse", "CancelRequest",
        "CancelRequestResponse", "UpdateEventSubscriber", "UpdateEventSubscriberResponse", "GetEventSubscribers",
        "GetApiKeys", "GetApiKeysResponse", "RegenerateApiKeys", "RegenerateApiKeysResponse", "UserApiKey",
        "ConvertSessionToToken", "ConvertSessionToTokenResponse", "GetAccessToken", "GetAccessTokenResponse",
        "NavItem", "GetNavItems", "GetNavItemsResponse", "MetadataApp", "GetFile", "FileContent", "StreamFiles",
        "StreamServerEvents", "AuditBase", "BackgroundJobBase", "BackgroundJobOptions", "BackgroundJob",
        "JobSummary", "ScheduledTask", "CompletedJob", "FailedJob", "WorkerStats",
    ]

    private static func identity(_ type: MetadataType) -> String { (type.namespace ?? "") + "." + type.name }

    /// Each type after its base when the list declares it, each once: the order of ServiceStack's
    /// `CreateSortedTypeList`, in which a file meets the metadata's types.
    static func basesFirst(_ types: [MetadataType]) -> [(type: MetadataType, identity: String)] {
        var declared: [String: MetadataType] = [:]
        for type in types {
            let identity = identity(type)
            if declared[identity] == nil { declared[identity] = type }
        }
        var ordered: [(type: MetadataType, identity: String)] = []
        var seen: Set<String> = []
        func add(_ type: MetadataType, _ identity: String, depth: Int) {
            guard !seen.contains(identity), depth < 64 else { return }
            if let base = type.inherits {
                let baseIdentity = (base.namespace ?? "") + "." + base.name
                if let baseType = declared[baseIdentity] { add(baseType, baseIdentity, depth: depth + 1) }
            }
            if seen.insert(identity).inserted { ordered.append((type, identity)) }
        }
        for type in types { add(type, identity(type), depth: 0) }
        return ordered
    }

    /// Each type after the types it names that the list declares (depth first, each once), as
    /// ServiceStack orders a script's types: a request's return type (or its type arguments), a
    /// base (or its type arguments), each property's type (or its type arguments), an array's
    /// element type for the array (`ToolCall[]`), as ServiceStack has since October 2024.
    static func orderedByDependencies(
        _ types: [(type: MetadataType, identity: String)], returnTypes: [String: MetadataTypeName]
    )
        -> [(type: MetadataType, identity: String)]
    {
        // Each entry is named by its position in `types`, and the result gathered as positions.
        var dependencies: [String: [String]] = [:]
        var positions: [String: Int] = [:]
        for (position, entry) in types.enumerated() {
            let type = entry.type
            positions[type.name] = position
            // A name declared twice (in two namespaces) has the dependencies of both.
            var named = dependencies.removeValue(forKey: type.name) ?? []
            func push(_ dependency: String) {
                let dependency = dependency.hasSuffix("[]") ? String(dependency.leftPart("[")) : dependency
                if !named.contains(dependency) { named.append(dependency) }
            }
            func push(_ name: MetadataTypeName) {
                if name.genericArgs.isEmpty { push(name.name) } else { name.genericArgs.forEach(push) }
            }
            if let returned = returnTypes[type.name] { push(returned) }
            if let base = type.inherits { push(base) }
            for property in type.properties {
                if let arguments = property.genericArgs, !arguments.isEmpty {
                    arguments.forEach(push)
                } else {
                    push(property.typeName)
                }
            }
            dependencies[type.name] = named
        }
        var considered: Set<String> = []
        var placed: Set<String> = []
        var result: [Int] = []
        result.reserveCapacity(types.count)
        func place(_ position: Int) {
            if placed.insert(types[position].identity).inserted { result.append(position) }
        }
        func placeDependencies(of name: String, depth: Int) {
            guard depth < 256 else { return }
            for dependency in dependencies[name] ?? [] {
                guard let position = positions[dependency], considered.insert(dependency).inserted else { continue }
                placeDependencies(of: dependency, depth: depth + 1)
                place(position)
            }
        }
        for (position, entry) in types.enumerated() {
            placeDependencies(of: entry.type.name, depth: 0)
            place(position)
            considered.insert(entry.type.name)
        }
        return result.map { types[$0] }
    }

    // MARK: Built-in interfaces

    /// ServiceStack's marker interfaces, by name, with their type parameters and properties
    /// (name, .NET type): what `/types/typescript` declares when a type implements one.
    static let markerInterfaces: [(name: String, parameters: [String], properties: [(String, String)])] = [
        ("IGet", [], []), ("IPost", [], []), ("IPut", [], []), ("IDelete", [], []), ("IPatch", [], []),
        ("IOptions", [], []),
        ("IHasSessionId", [], [("SessionId", "String")]), ("IHasBearerToken", [], [("BearerToken", "String")]),
        ("IHasVersion", [], [("Version", "Int32")]),
        ("ICreateDb`1", ["Table"], []), ("IUpdateDb`1", ["Table"], []), ("IPatchDb`1", ["Table"], []),
        ("IDeleteDb`1", ["Table"], []), ("ISaveDb`1", ["Table"], []),
    ]

    /// `IReturn<T>`, `IReturnVoid`, then each marker interface the types implement that the
    /// metadata does not declare, in the order first met (`types` in file order, then the
    /// responses, then the requests).
    private static func builtInInterfaces(for types: [MetadataType], operations: [MetadataOperation]) -> [MetadataType]
    {
        var declared = Set(types.map(\.name))
        var result = [interface("IReturn`1", parameters: ["T"]), interface("IReturnVoid")]
        let all = types + operations.compactMap(\.response) + operations.map(\.request)
        for type in all {
            for implemented in type.implements {
                guard let marker = markerInterfaces.first(where: { $0.name == implemented.name }),
                    declared.insert(marker.name).inserted
                else { continue }
                result.append(interface(marker.name, parameters: marker.parameters, properties: marker.properties))
            }
        }
        return result.filter { interface in !types.contains { $0.name == interface.name } }
    }

    /// The generic names written with their arity: neither Python nor TypeScript can declare one
    /// name with several arities, so where a name is declared with more than one (`QueryDb`,
    /// ``QueryDb`1`` and ``QueryDb`2``), every generic name that begins with it keeps its arity
    /// (``QueryDbTenant`2`` too, as ServiceStack matches them by prefix).
    var conflictingNames: Set<String> { Self.conflictingNames(among: entries.map(\.type.name)) }

    /// ``conflictingNames`` of any list of full names.
    static func conflictingNames(among names: [String]) -> Set<String> {
        var arities: [String: Set<String>] = [:]
        for name in names { arities[TypeReference.stripArity(name), default: []].insert(name) }
        let prefixes = arities.filter { $0.value.count > 1 }.keys
        return Set(names.filter { name in name.containsMark("`") && prefixes.contains { name.hasPrefix($0) } })
    }

    /// The interfaces a class lists after its base and return marker.
    func implemented(by type: MetadataType) -> [MetadataTypeName] {
        type.implements.filter { !["IReturn`1", "IReturnVoid"].contains($0.name) && interfaces.contains($0.name) }
    }

    /// A member's type as the script generators read it: a value type the metadata does not
    /// describe (a .NET struct) travels as text, and `Nullable<T>[]` stays an array of optionals.
    static func memberType(_ property: MetadataProperty) -> TypeReference {
        let isSystem = property.namespace.map { $0 == "System" || $0.hasPrefix("System.") } ?? true
        if property.isValueType && !property.isEnum && !isSystem { return .named("String", []) }
        let declared = property.typeName
        if declared.hasPrefix("Nullable`1[]"), !property.type.arguments.isEmpty { return .array(property.type) }
        return property.type
    }

    /// `KeyValuePair<TKey, TValue>`, which ServiceStack exports with the types when a member
    /// uses it and the metadata does not declare it.
    private static func exportedSystemTypes(
        for types: [MetadataType], operations: [MetadataOperation]
    ) -> [MetadataType] {
        let all = types + operations.compactMap(\.response) + operations.map(\.request)
        guard !types.contains(where: { $0.name == "KeyValuePair`2" }),
            all.contains(where: { $0.properties.contains { $0.typeName == "KeyValuePair`2" } })
        else { return [] }
        let json: JSONObject = [
            "name": "KeyValuePair`2", "namespace": "System.Collections.Generic", "genericArgs": ["'TKey", "'TValue"],
            "properties": [["name": "Key", "type": "'TKey"], ["name": "Value", "type": "'TValue"]],
        ]
        return [try! MetadataType(reader: JSONReader(root: .object(json)))]
    }

    private static func interface(
        _ name: String, parameters: [String] = [], properties: [(String, String)] = []
    ) -> MetadataType {
        var json: JSONObject = ["name": .string(name), "namespace": "ServiceStack", "isInterface": true]
        if !parameters.isEmpty { json["genericArgs"] = .array(parameters.map { .string($0) }) }
        json["properties"] = .array(
            properties.map { property in
                .object(["name": .string(property.0), "type": .string(property.1), "namespace": "System"])
            })
        // Built from a literal the reader always accepts.
        return try! MetadataType(reader: JSONReader(root: .object(json)))
    }
}
