/// How `/types/swift` writes a .NET type (spec §13's table): value types by their Swift
/// counterparts, collections as arrays and dictionaries, `Nullable<T>` as `T` (optionality is
/// the property's, `T?`), and generic classes without their arity, but for the AutoQuery bases
/// the Swift package names by it (``QueryDb`2`` → `QueryDb2`).
enum SwiftTypeMap {
    static let scalars: [String: String] = [
        "String": "String", "Guid": "String", "Char": "String", "Object": "String",
        "Int32": "Int", "Int64": "Int", "Byte": "UInt8", "SByte": "Int8",
        "Int16": "Int16", "UInt16": "UInt16", "UInt32": "UInt32", "UInt64": "UInt64",
        "Single": "Float", "Double": "Double", "Decimal": "Double", "Boolean": "Bool",
        "DateTime": "Date", "DateTimeOffset": "Date", "DateOnly": "Date", "TimeSpan": "TimeInterval", "TimeOnly": "TimeInterval",
        "Stream": "Data", "Type": "String", "Uri": "String",
    ]

    /// The generic types the Swift package names by arity.
    static let genericAliases = ["QueryDb`1": "QueryDb", "QueryDb`2": "QueryDb2", "QueryData`1": "QueryData", "QueryData`2": "QueryData2"]

    static let sequences: Set<String> = ["List", "IList", "ICollection", "IEnumerable", "HashSet", "ISet", "IReadOnlyList", "IReadOnlyCollection"]
    static let dictionaries: Set<String> = ["Dictionary", "IDictionary", "IReadOnlyDictionary", "SortedDictionary", "ConcurrentDictionary"]

    /// The Swift spelling of a type; the types named in `strings` (`TreatTypesAsStrings`)
    /// are written `String`.
    static func name(of reference: TypeReference, strings: Set<String> = []) -> String {
        if !strings.isEmpty, case .named(let name, let arguments) = reference, strings.contains(name), arguments.isEmpty { return "String" }
        func spell(_ reference: TypeReference) -> String { Self.name(of: reference, strings: strings) }
        func element(_ reference: TypeReference) -> String { Self.elementName(of: reference, strings: strings) }
        switch reference {
        case .array(.named("Byte", [])):
            return "[UInt8]"
        case .array(let item):
            return "[\(element(item))]"
        case .named(let name, let arguments):
            if let scalar = scalars[name], arguments.isEmpty { return scalar }
            switch (name, arguments.count) {
            case ("Nullable", 1): return spell(arguments[0])
            case (_, 1) where sequences.contains(name): return "[\(element(arguments[0]))]"
            case (_, 2) where dictionaries.contains(name): return "[\(element(arguments[0])):\(element(arguments[1]))]"
            case ("KeyValuePair", 2): return "KeyValuePair<\(spell(arguments[0])), \(spell(arguments[1]))>"
            case (_, 0): return name
            default:
                let base = genericAliases["\(name)`\(arguments.count)"] ?? name
                return "\(base)<\(arguments.map(spell).joined(separator: ", "))>"
            }
        }
    }

    /// A collection's element: `Nullable<T>` stays optional there (`[EnumType?]`).
    private static func elementName(of reference: TypeReference, strings: Set<String>) -> String {
        if case .named("Nullable", let arguments) = reference, arguments.count == 1 { return name(of: arguments[0], strings: strings) + "?" }
        return name(of: reference, strings: strings)
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
        if case .named(let name, let arguments) = reference { return arguments.count == 2 && dictionaries.contains(name) }
        return false
    }

    /// Whether the type is a collection (written with an initial `[]` / `[:]` when collections
    /// are initialised).
    static func isCollection(_ reference: TypeReference) -> Bool {
        switch reference {
        case .array: true
        case .named(let name, let arguments): (arguments.count == 1 && sequences.contains(name)) || (arguments.count == 2 && dictionaries.contains(name))
        }
    }
}
