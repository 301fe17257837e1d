/// How `/types/java` writes a .NET type (docs/servicestack.md#generated-dtos): boxed scalars
/// (`Integer`, `Long`, `BigDecimal`), `Date` for dates, `UUID`, `byte[]` for bytes, `ArrayList<T>`
/// for every sequence, `HashMap<K,V>` for dictionaries, generic classes as `Name<T>`, and a name
/// declared with several arities with its arity (``QueryDb`2`` → `QueryDb_2`).
///
/// ServiceStack spells a member's own type and a type argument by two paths, and the file
/// shows the difference: arguments are joined by `, ` at the top and by `,` inside an argument,
/// and a nested `HashSet<T>` keeps its name where a member of that type is an `ArrayList<T>`.
struct JavaTypeMap {
    /// Full names (``QueryDb`1``) written with their arity.
    var conflicts: Set<String> = []
    /// `TreatTypesAsStrings`: names written as `String`.
    var strings: Set<String> = []

    static let aliases: [String: String] = [
        "String": "String", "Boolean": "Boolean", "Char": "String", "SByte": "Byte", "Byte": "Short",
        "Int16": "Short", "Int32": "Integer", "Int64": "Long", "UInt16": "Integer", "UInt32": "Long",
        "UInt64": "BigInteger", "Single": "Float", "Double": "Double", "Decimal": "BigDecimal", "IntPtr": "Long",
        "Guid": "UUID", "DateTime": "Date", "DateOnly": "Date", "DateTimeOffset": "Date", "TimeSpan": "TimeSpan",
        "TimeOnly": "TimeSpan", "Type": "Class", "List": "ArrayList", "Dictionary": "HashMap",
        "Stream": "InputStream",
    ]

    /// The generic collections a member holds as an `ArrayList<T>`.
    static let sequences: Set<String> = ["List", "IEnumerable", "ICollection", "HashSet", "Queue", "Stack"]
    /// The generic dictionaries a member holds as a `HashMap<K,V>`.
    static let dictionaries: Set<String> = ["Dictionary", "IDictionary", "IOrderedDictionary"]

    /// A member's, base's or marker's type.
    func name(of reference: TypeReference) -> String {
        switch reference {
        case .named("Nullable", let arguments) where arguments.count == 1: argument(arguments[0])
        case .array(.named("Nullable", let arguments)) where arguments.count == 1:
            "ArrayList<\(argument(arguments[0]))>"
        case .named(let name, let arguments) where arguments.count == 1 && Self.sequences.contains(name):
            "ArrayList<\(argument(arguments[0]))>"
        case .named(let name, let arguments) where arguments.count == 2 && Self.dictionaries.contains(name):
            "HashMap<\(argument(arguments[0])),\(argument(arguments[1]))>"
        case .named(let name, let arguments) where !arguments.isEmpty:
            "\(alias(name, arity: arguments.count))<\(arguments.map(argument).joined(separator: ", "))>"
        default: alias(reference)
        }
    }

    /// A type argument: `Nullable<T>` as `T`, `List<T>` and `Dictionary<K,V>` as Java's
    /// collections, other generics with their arguments joined by `,`.
    func argument(_ reference: TypeReference) -> String {
        switch reference {
        case .named("Nullable", let arguments) where arguments.count == 1: alias(arguments[0])
        case .named("List", let arguments) where arguments.count == 1: "ArrayList<\(argument(arguments[0]))>"
        case .named("Dictionary", let arguments) where arguments.count == 2:
            "HashMap<\(argument(arguments[0])),\(argument(arguments[1]))>"
        case .named(let name, let arguments) where !arguments.isEmpty:
            "\(alias(name, arity: 0))<\(arguments.map(argument).joined(separator: ","))>"
        default: alias(reference)
        }
    }

    /// A plain or array type: `Byte[]` as `byte[]`, any other array as an `ArrayList`.
    private func alias(_ reference: TypeReference) -> String {
        switch reference {
        // `byte[]` too: a return type is spelled in Java and then read again.
        case .array(.named("Byte", [])), .array(.named("byte", [])): "byte[]"
        case .array(let element): "ArrayList<\(alias(element))>"
        case .named(let name, let arguments): alias(name, arity: arguments.count)
        }
    }

    /// A name: `TreatTypesAsStrings` first, then Java's alias, else the name itself (see
    /// ``ScriptTypeName``).
    func alias(_ name: String, arity: Int) -> String {
        if arity == 0, strings.contains(name) { return "String" }
        return ScriptTypeName.spelling(
            name, arity: arity, aliases: Self.aliases, conflicts: conflicts, aritySeparator: "_")
    }
}
