/// How `/types/swift` writes a .NET type (docs/servicestack.md#generated-dtos): value types by their Swift
/// counterparts, collections as arrays and dictionaries, `Nullable<T>` as `T` (optionality is
/// the property's, `T?`), and generic classes without their arity, but for the AutoQuery bases
/// the Swift package names by it (``QueryDb`2`` → `QueryDb2`) and for names a file declares
/// with several arities, which Swift cannot overload (``Page`1`` → `Page_1`).
struct SwiftTypeMap {
    /// `TreatTypesAsStrings`: these types are written `String`.
    var strings: Set<String> = []
    /// Names (without arity) the metadata declares with more than one arity.
    var conflicts: Set<String> = []

    static let scalars: [String: String] = [
        "String": "String", "Guid": "String", "Char": "String", "Object": "String",
        "Int32": "Int", "Int64": "Int", "Byte": "UInt8", "SByte": "Int8",
        "Int16": "Int16", "UInt16": "UInt16", "UInt32": "UInt32", "UInt64": "UInt64",
        "Single": "Float", "Double": "Double", "Decimal": "Double", "Boolean": "Bool",
        "DateTime": "Date", "DateTimeOffset": "Date", "DateOnly": "Date", "TimeSpan": "TimeInterval",
        "TimeOnly": "TimeInterval",
        "Stream": "Data", "Type": "String", "Uri": "String",
    ]

    /// The generic types the Swift package names by arity.
    static let genericAliases = [
        "QueryDb`1": "QueryDb", "QueryDb`2": "QueryDb2", "QueryData`1": "QueryData", "QueryData`2": "QueryData2",
    ]

    static let sequences: Set<String> = [
        "List", "IList", "ICollection", "IEnumerable", "HashSet", "ISet", "IReadOnlyList", "IReadOnlyCollection",
    ]
    static let dictionaries: Set<String> = [
        "Dictionary", "IDictionary", "IReadOnlyDictionary", "SortedDictionary", "ConcurrentDictionary",
    ]

    /// The names a set of types declares with more than one arity (`Page` and ``Page`1``).
    static func conflicts(among types: [MetadataType]) -> Set<String> {
        var arities: [String: Set<Int>] = [:]
        for type in types { arities[TypeReference.stripArity(type.name), default: []].insert(type.genericArgs.count) }
        return Set(arities.filter { $0.value.count > 1 }.keys)
    }

    /// The Swift spelling of a type.
    func name(of reference: TypeReference) -> String {
        if !strings.isEmpty, case .named(let name, let arguments) = reference, strings.contains(name), arguments.isEmpty
        {
            return "String"
        }
        func spell(_ reference: TypeReference) -> String { name(of: reference) }
        func element(_ reference: TypeReference) -> String { elementName(of: reference) }
        switch reference {
        case .array(.named("Byte", [])):
            return "[UInt8]"
        case .array(let item):
            return "[\(element(item))]"
        case .named(let name, let arguments):
            if let scalar = Self.scalars[name], arguments.isEmpty { return scalar }
            switch (name, arguments.count) {
            case ("Nullable", 1): return spell(arguments[0])
            case (_, 1) where Self.sequences.contains(name): return "[\(element(arguments[0]))]"
            case (_, 2) where Self.dictionaries.contains(name):
                return "[\(element(arguments[0])):\(element(arguments[1]))]"
            // Without arguments a dictionary's types are unknown: text to text (and always optional).
            case (_, 0) where Self.dictionaries.contains(name): return "[String:String]"
            case ("KeyValuePair", 2): return "KeyValuePair<\(spell(arguments[0])), \(spell(arguments[1]))>"
            case (_, 0): return name
            default:
                return "\(genericName(name, arity: arguments.count))<\(arguments.map(spell).joined(separator: ", "))>"
            }
        }
    }

    /// A generic type's name: the Swift package's alias, `Name_N` when the name is declared
    /// with several arities, else the bare name.
    func genericName(_ name: String, arity: Int) -> String {
        if let alias = Self.genericAliases["\(name)`\(arity)"] { return alias }
        return conflicts.contains(name) ? "\(name)_\(arity)" : name
    }

    /// A collection's element: `Nullable<T>` stays optional there (`[EnumType?]`).
    private func elementName(of reference: TypeReference) -> String {
        if case .named("Nullable", let arguments) = reference, arguments.count == 1 {
            return name(of: arguments[0]) + "?"
        }
        return name(of: reference)
    }

    /// Whether the type is always written optional: `Nullable<T>`, and a dictionary without
    /// type arguments.
    static func isAlwaysOptional(_ reference: TypeReference) -> Bool {
        guard case .named(let name, let arguments) = reference else { return false }
        return (name == "Nullable" && arguments.count == 1) || (arguments.isEmpty && dictionaries.contains(name))
    }

    /// Whether properties of this type carry `@TimeSpan`.
    static func isTimeSpan(_ reference: TypeReference) -> Bool {
        switch reference {
        case .named("TimeSpan", []): true
        case .named("Nullable", let arguments) where arguments.count == 1: isTimeSpan(arguments[0])
        default: false
        }
    }

    /// Whether the type is a dictionary (`[K:V]`, initialised with `[:]`).
    static func isDictionary(_ reference: TypeReference) -> Bool {
        if case .named(let name, let arguments) = reference {
            return arguments.count == 2 && dictionaries.contains(name)
        }
        return false
    }

    /// Whether the type is a collection (written with an initial `[]` / `[:]` when collections
    /// are initialised).
    static func isCollection(_ reference: TypeReference) -> Bool {
        switch reference {
        case .array: true
        case .named(let name, let arguments):
            (arguments.count == 1 && sequences.contains(name)) || (arguments.count == 2 && dictionaries.contains(name))
        }
    }
}
