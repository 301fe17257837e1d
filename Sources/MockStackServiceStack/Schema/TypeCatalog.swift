import MockStackCore
import Synchronization

/// Every DTO of an app, resolved the first time something needs it: .NET type names mapped to
/// ``ValueShape``s, inheritance flattened (base properties first), generic types instantiated
/// with their arguments (``QueryResponse`1`` of `TechnologyView`). Each class is resolved on
/// its own (a property of another class type is a reference to it, not the class), so a type
/// that no request, answer or check names is never resolved: the real hosts publish a few
/// hundred, and resolving them all at load would make every start-up pay for them.
public struct TypeCatalog: Sendable {
    /// Declared types by name as metadata spells it (with the arity suffix for generic ones).
    private let definitions: [String: MetadataType]
    /// The non-generic classes by name, each resolved on first use: the lookup every request
    /// makes, without hashing an enum and without a lock.
    private let objectsByName: [String: ResolvedOnFirstUse<ObjectShape>]
    /// Generic classes instantiated with their arguments, as they are first asked for.
    private let instances: GenericInstances

    public init(metadata: MetadataTypes) {
        var definitions: [String: MetadataType] = [:]
        for type in metadata.types { definitions[type.name] = definitions[type.name] ?? type }
        for operation in metadata.operations {
            for type in [operation.request] + (operation.response.map { [$0] } ?? []) {
                definitions[type.name] = definitions[type.name] ?? type
            }
        }
        self.definitions = definitions
        let builder = Builder(definitions: definitions)
        var byName: [String: ResolvedOnFirstUse<ObjectShape>] = [:]
        byName.reserveCapacity(definitions.count)
        for (name, type) in definitions where type.genericArgs.isEmpty && !type.isEnum && !type.isInterface {
            let reference = TypeReference.named(name, [])
            byName[name] = ResolvedOnFirstUse { builder.makeObject(reference)! }
        }
        objectsByName = byName
        instances = GenericInstances(definitions: definitions)
    }

    /// The shape of a type reference (`Int32`, `List<Poco>`, `HelloResponse`).
    public func shape(of reference: TypeReference) -> ValueShape {
        Builder(definitions: definitions).shape(of: reference, substituting: [:])
    }

    /// The resolved class a reference names, when the metadata describes it.
    public func object(_ reference: TypeReference) -> ObjectShape? {
        if case .named(let name, let arguments) = reference, arguments.isEmpty { return objectsByName[name]?.value }
        return instances.object(reference)
    }

    /// The property a declared type marks `isPrimaryKey`, if any.
    public func primaryKey(of name: String) -> String? {
        definitions[name]?.properties.first { $0.json["isPrimaryKey"] == .bool(true) }?.name
    }

    /// The declaration of a type by the name metadata spells it (``QueryResponse`1``, an enum).
    public func definition(named name: String) -> MetadataType? {
        definitions[name]
    }

    /// Whether a type of this name and number of generic arguments means something: a .NET
    /// scalar or collection mockstack maps, or a type the metadata declares.
    func knows(_ name: String, arity: Int) -> Bool {
        Builder.scalars[name] != nil || Builder.listNames.contains(name) || Builder.mapNames.contains(name)
            || name == "Nullable" || name == "KeyValuePair"
            || Builder(definitions: definitions).definition(name, arity: arity) != nil
    }

    /// The resolved class with this (non-generic) name.
    public func object(named name: String) -> ObjectShape? {
        objectsByName[name]?.value
    }

    /// The (non-generic) class's properties as ``object(named:)`` would list them, inherited
    /// ones first, each with its `[DataMember]` name; read from the declarations without
    /// resolving any type: what the metadata check needs of every request.
    func propertyNames(ofClassNamed name: String) -> [(name: String, dataMemberName: String?)]? {
        guard objectsByName[name] != nil else { return nil }
        let builder = Builder(definitions: definitions)
        var result: [(name: String, dataMemberName: String?)] = []
        func collect(_ reference: TypeReference, depth: Int) {
            guard depth < 32, case .named(let name, let arguments) = reference,
                let type = builder.definition(name, arity: arguments.count), !type.isEnum
            else { return }
            if let base = type.inherits { collect(base.reference, depth: depth + 1) }
            for property in type.properties {
                let own = (name: property.name, dataMemberName: property.json["dataMember"]?["name"]?.stringValue)
                // A redeclared (`new`) property replaces the inherited one in place.
                if let existing = result.firstIndex(where: { $0.name == property.name }) {
                    result[existing] = own
                } else {
                    result.append(own)
                }
            }
        }
        collect(.named(name, []), depth: 0)
        return result
    }

    /// The generic instantiations asked for so far (``QueryResponse`1`` of `Technology`), behind
    /// a lock: a request meets one only inside an answer, most answers' own types being held
    /// resolved by their operation.
    private final class GenericInstances: Sendable {
        let definitions: [String: MetadataType]
        private let resolved = Mutex<[TypeReference: ObjectShape?]>([:])

        init(definitions: [String: MetadataType]) {
            self.definitions = definitions
        }

        func object(_ reference: TypeReference) -> ObjectShape? {
            if let known = resolved.withLock({ $0[reference] }) { return known }
            let object = Builder(definitions: definitions).makeObject(reference)
            return resolved.withLock { table in
                if let known = table[reference] { return known }
                table[reference] = object
                return object
            }
        }
    }

    /// Resolution work: a class's properties and their shapes (another class a property holds
    /// is named by reference, and resolved when it is asked for).
    private struct Builder: Sendable {
        let definitions: [String: MetadataType]

        func definition(_ name: String, arity: Int) -> MetadataType? {
            arity == 0 ? definitions[name] : definitions["\(name)`\(arity)"] ?? definitions[name]
        }

        func makeObject(_ reference: TypeReference) -> ObjectShape? {
            guard let properties = properties(of: reference, depth: 0) else { return nil }
            return ObjectShape(reference: reference, properties: properties)
        }

        /// Properties of a class, its bases' first; nil when the metadata does not declare it.
        func properties(of reference: TypeReference, depth: Int) -> [PropertyShape]? {
            guard depth < 32, case .named(let name, let arguments) = reference,
                let type = definition(name, arity: arguments.count), !type.isEnum
            else { return nil }
            let parameters = Dictionary(zip(type.genericArgs, arguments), uniquingKeysWith: { first, _ in first })
            var result: [PropertyShape] = []
            if let base = type.inherits {
                let baseReference = Self.substitute(base.reference, parameters)
                result += properties(of: baseReference, depth: depth + 1) ?? []
            }
            for property in Self.inSerializationOrder(type.properties) {
                let shape = shape(of: property.type, substituting: parameters)
                let dataMemberName = property.json["dataMember"]?["name"]?.stringValue
                let own = PropertyShape(name: property.name, dataMemberName: dataMemberName, shape: shape)
                // A redeclared (`new`) property replaces the inherited one in place.
                if let existing = result.firstIndex(where: { $0.name == property.name }) {
                    result[existing] = own
                } else {
                    result.append(own)
                }
            }
            return result
        }

        /// `[DataMember(Order = n)]` orders a class's own members: those without an order keep
        /// their declaration order and come first, then the ordered ones by their order.
        static func inSerializationOrder(_ properties: [MetadataProperty]) -> [MetadataProperty] {
            let orders = properties.map { $0.json["dataMember"]?["order"]?.intValue }
            guard orders.contains(where: { $0 != nil }) else { return properties }
            return properties.indices
                .sorted { (orders[$0] ?? -1, $0) < (orders[$1] ?? -1, $1) }
                .map { properties[$0] }
        }

        static func substitute(_ reference: TypeReference, _ parameters: [String: TypeReference]) -> TypeReference {
            guard !parameters.isEmpty else { return reference }
            switch reference {
            case .array(let element): return .array(substitute(element, parameters))
            case .named(let name, let arguments):
                if arguments.isEmpty, let replacement = parameters[name] { return replacement }
                return .named(name, arguments.map { substitute($0, parameters) })
            }
        }

        func shape(of reference: TypeReference, substituting parameters: [String: TypeReference]) -> ValueShape {
            let reference = Self.substitute(reference, parameters)
            switch reference {
            case .array(.named("Byte", [])): return .bytes
            case .array(let element): return .list(shape(of: element, substituting: [:]))
            case .named(let name, let arguments):
                let first = arguments.first.map { shape(of: $0, substituting: [:]) } ?? .any
                let second = arguments.count > 1 ? shape(of: arguments[1], substituting: [:]) : .any
                if let scalar = Self.scalars[name] { return scalar }
                switch name {
                case "Nullable": return .nullable(first)
                case _ where Self.listNames.contains(name): return .list(first)
                case _ where Self.mapNames.contains(name):
                    return arguments.count == 2 ? .map(key: first, value: second) : .map(key: .string, value: .any)
                case "KeyValuePair": return .keyValuePair(key: first, value: second)
                default: break
                }
                guard let type = definition(name, arity: arguments.count) else { return .any }
                if type.isEnum {
                    let names = type.enumNames
                    return .enumeration(
                        EnumShape(name: name, names: names, values: type.enumValues, isInt: type.isEnumInt))
                }
                if type.isInterface { return .any }
                return .object(reference)
            }
        }

        static let scalars: [String: ValueShape] = {
            var table: [String: ValueShape] = [
                "String": .string, "Char": .char, "Boolean": .bool, "Guid": .guid,
                "DateTime": .dateTime, "DateOnly": .dateTime, "DateTimeOffset": .dateTimeOffset,
                "TimeSpan": .timeSpan, "TimeOnly": .timeSpan,
                "ResponseStatus": .responseStatus, "ResponseError": .responseError, "Object": .any, "Stream": .stream,
            ]
            for kind in [
                NumberKind.byte, .sbyte, .int16, .uint16, .int32, .uint32, .int64, .uint64, .single, .double, .decimal,
            ] {
                table[kind.rawValue] = .number(kind)
            }
            return table
        }()

        static let listNames: Set<String> = [
            "List", "IList", "ICollection", "IEnumerable", "IReadOnlyList", "IReadOnlyCollection",
            "HashSet", "ISet", "SortedSet", "Collection", "Queue", "Stack", "ArrayOfString", "ArrayOfInt",
        ]
        static let mapNames: Set<String> = [
            "Dictionary", "IDictionary", "IReadOnlyDictionary", "SortedDictionary", "ConcurrentDictionary",
            "SortedList", "NameValueCollection",
        ]
    }
}
