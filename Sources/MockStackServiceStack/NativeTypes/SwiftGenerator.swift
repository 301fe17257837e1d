/// A whole `/types/swift` file from an app's metadata (spec §13): the options header, one
/// `import` per `DefaultImports` entry, then the request DTOs and their responses in operation
/// order, then every other type in the order the requests and responses lead to it, each
/// followed by a blank line.
public struct SwiftGenerator: Sendable {
    public let metadata: MetadataTypes
    public let header: SwiftHeader

    /// Types the Swift generator leaves to the ServiceStack Swift package (by name without arity).
    static let ignoredTypes: Set<String> = [
        "QueryBase", "QueryDb", "QueryData", "QueryResponse", "AuditBase", "EmptyResponse", "ResponseStatus",
        "ResponseError", "ErrorResponse", "Service",
    ]

    /// Worked out once per app rather than per request: the selection's document, the
    /// interfaces the file defines, the names declared with several arities, and types by
    /// name (with arity) for the discovery order.
    private let document: MetadataDocument
    private let interfaces: Set<String>
    private let conflicts: Set<String>
    private let typesByName: [String: MetadataType]

    public init(metadata: MetadataTypes, header: SwiftHeader = SwiftHeader()) {
        self.metadata = metadata
        self.header = header
        document = MetadataDocument(metadata: metadata)
        interfaces = Set(metadata.types.filter(\.isInterface).map { MetadataDocument.key($0.name) })
        conflicts = SwiftTypeMap.conflicts(among: metadata.types + metadata.operations.map(\.request) + metadata.operations.compactMap(\.response))
        var byName: [String: MetadataType] = [:]
        for type in metadata.types { byName[Self.fullName(type.name, arity: type.genericArgs.count)] = byName[Self.fullName(type.name, arity: type.genericArgs.count)] ?? type }
        typesByName = byName
    }

    /// ``Name`N`` for a generic type, `Name` otherwise: what tells `Page` and ``Page`1`` apart.
    static func fullName(_ name: String, arity: Int) -> String {
        let bare = TypeReference.stripArity(name)
        return arity == 0 ? bare : "\(bare)`\(arity)"
    }

    /// The file for a request's query options.
    /// - Parameters:
    ///   - date: the `Date:` of the header;
    ///   - baseURL: where the file is served from (the header's `BaseUrl:` unless the query sets it).
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let writer = SwiftTypeWriter(options: options, interfaces: interfaces, conflicts: conflicts)
        func excludesGenericBase(_ type: MetadataType) -> Bool {
            options.flag("ExcludeGenericBaseTypes") && !(type.inherits?.genericArgs.isEmpty ?? true)
        }
        var out = ""
        if !options.withoutOptions {
            out += header.render(options, date: date, baseURL: baseURL) + "\n"
        }
        // Only module names: an import line is code, and a query must not write code.
        for module in options.list("DefaultImports") where SwiftTypeWriter.isQualifiedName(module) { out += "import \(module)\n" }
        out += "\n"

        // By full name, so `Page` and ``Page`1`` are both written.
        var written: Set<String> = []
        func emit(_ text: String, for type: MetadataType) {
            out += text + "\n"
            written.insert(Self.fullName(type.name, arity: type.genericArgs.count))
        }
        func skips(_ type: MetadataType) -> Bool {
            written.contains(Self.fullName(type.name, arity: type.genericArgs.count))
                || Self.ignoredTypes.contains(MetadataDocument.key(type.name)) || !selection.includesType(type.name)
        }
        let operations = metadata.operations.filter { selection.includesOperation($0) && !Self.ignoredTypes.contains(MetadataDocument.key($0.name)) }
        for operation in operations where !written.contains(Self.fullName(operation.name, arity: operation.request.genericArgs.count)) {
            if excludesGenericBase(operation.request) {
                out += Self.exclusion(of: operation.request)
                written.insert(Self.fullName(operation.name, arity: operation.request.genericArgs.count))
            } else {
                emit(writer.writeClass(operation.request, operation: operation), for: operation.request)
            }
        }
        for operation in operations {
            guard let response = operation.response, !skips(response) else { continue }
            emit(writer.writeClass(response, isResponse: true), for: response)
        }
        for type in discoveryOrder(from: operations) where !skips(type) {
            if type.isEnum {
                emit(writer.writeEnum(type), for: type)
            } else if type.isInterface {
                emit(writer.writeProtocol(type), for: type)
            } else if excludesGenericBase(type) {
                out += Self.exclusion(of: type)
                written.insert(Self.fullName(type.name, arity: type.genericArgs.count))
            } else {
                emit(writer.writeClass(type), for: type)
            }
        }
        return out
    }

    /// `//Excluded Name : Base<A,B>`, written in place of a type under `ExcludeGenericBaseTypes`
    /// (with no blank line after it).
    static func exclusion(of type: MetadataType) -> String {
        guard let base = type.inherits else { return "" }
        return "//Excluded \(type.name) : \(MetadataDocument.key(base.name))<\(base.genericArgs.joined(separator: ","))>\n"
    }

    /// The metadata's types in the order the operations reach them: each request, then each
    /// response, then what those refer to, breadth first (properties, base classes, generic
    /// arguments); types nothing reaches follow in metadata order.
    func discoveryOrder(from operations: [MetadataOperation]) -> [MetadataType] {
        var order: [MetadataType] = []
        var seen: Set<String> = []
        var queue: [MetadataType] = operations.map(\.request) + operations.compactMap(\.response)
        var index = 0
        while index < queue.count {
            let type = queue[index]
            index += 1
            for name in Self.referencedNames(type) where seen.insert(name).inserted {
                if let found = typesByName[name] {
                    order.append(found)
                    queue.append(found)
                }
            }
        }
        return order + metadata.types.filter { !seen.contains(Self.fullName($0.name, arity: $0.genericArgs.count)) }
    }

    /// What a type refers to (full names), in declaration order: its base class and its
    /// arguments, the interfaces it implements, then each property's type and generic arguments.
    static func referencedNames(_ type: MetadataType) -> [String] {
        var names: [String] = []
        func add(_ reference: TypeReference) {
            switch reference {
            case .array(let element): add(element)
            case .named(let name, let arguments):
                names.append(fullName(name, arity: arguments.count))
                arguments.forEach(add)
            }
        }
        if let base = type.inherits { add(base.reference) }
        for interface in type.implements { add(interface.reference) }
        for property in type.properties { add(property.type) }
        return names
    }
}
