/// How `/types/java` and `/types/kotlin` write a .NET type (docs/servicestack.md#generated-dtos):
/// boxed scalars (`Integer` in Java, `Int` in Kotlin, `Long`, `BigDecimal`), `Date` for dates,
/// `UUID`, `byte[]` (Kotlin's `ByteArray`) for bytes, `ArrayList<T>` for every sequence,
/// `HashMap<K,V>` for dictionaries, generic classes as `Name<T>`, and a name declared with
/// several arities with its arity (``QueryDb`2`` → `QueryDb_2`).
///
/// ServiceStack spells a member's own type and a type argument by two paths, and the files show
/// the difference: arguments are joined by `, ` at the top and by `,` inside an argument, a
/// nested `HashSet<T>` keeps its name where a member of that type is an `ArrayList<T>`, and
/// Kotlin marks a nullable argument (`ArrayList<Int?>`).
struct JVMTypeMap {
    /// The two languages ServiceStack's JVM generators write.
    enum Language {
        case java
        case kotlin
    }

    let language: Language
    /// Full names (``QueryDb`1``) written with their arity.
    var conflicts: Set<String> = []
    /// `TreatTypesAsStrings`: names written as `String`.
    var strings: Set<String> = []

    private static let javaAliases: [String: String] = [
        "String": "String", "Boolean": "Boolean", "Char": "String", "SByte": "Byte", "Byte": "Short",
        "Int16": "Short", "Int32": "Integer", "Int64": "Long", "UInt16": "Integer", "UInt32": "Long",
        "UInt64": "BigInteger", "Single": "Float", "Double": "Double", "Decimal": "BigDecimal", "IntPtr": "Long",
        "Guid": "UUID", "DateTime": "Date", "DateOnly": "Date", "DateTimeOffset": "Date", "TimeSpan": "TimeSpan",
        "TimeOnly": "TimeSpan", "Type": "Class", "List": "ArrayList", "Dictionary": "HashMap",
        "Stream": "InputStream",
    ]
    private static let kotlinAliases = javaAliases.merging(["Int32": "Int", "UInt16": "Int"]) { $1 }

    /// The generic collections a member holds as an `ArrayList<T>`.
    static let sequences: Set<String> = ["List", "IEnumerable", "ICollection", "HashSet", "Queue", "Stack"]
    /// The generic dictionaries a member holds as a `HashMap<K,V>`.
    static let dictionaries: Set<String> = ["Dictionary", "IDictionary", "IOrderedDictionary"]

    private var aliases: [String: String] { language == .java ? Self.javaAliases : Self.kotlinAliases }

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
        // Kotlin gives a dictionary of unknown types one (Java leaves the name, as ServiceStack does).
        case .named(let name, []) where language == .kotlin && Self.untypedDictionaries.contains(name):
            "HashMap<String,Object>"
        default: alias(reference)
        }
    }

    /// The dictionaries .NET declares without type arguments.
    private static let untypedDictionaries: Set<String> = [
        "OrderedDictionary", "StringDictionary", "IDictionary", "IOrderedDictionary",
    ]

    /// A type argument: `Nullable<T>` as `T` (`T?` in Kotlin), `List<T>` and `Dictionary<K,V>` as
    /// the JVM's collections, other generics with their arguments joined by `,`.
    func argument(_ reference: TypeReference) -> String {
        switch reference {
        case .named("Nullable", let arguments) where arguments.count == 1:
            alias(arguments[0]) + (language == .kotlin ? "?" : "")
        case .named("List", let arguments) where arguments.count == 1: "ArrayList<\(argument(arguments[0]))>"
        case .named("Dictionary", let arguments) where arguments.count == 2:
            "HashMap<\(argument(arguments[0])),\(argument(arguments[1]))>"
        case .named(let name, let arguments) where !arguments.isEmpty:
            "\(alias(name, arity: 0))<\(arguments.map(argument).joined(separator: ","))>"
        default: alias(reference)
        }
    }

    /// A plain or array type: bytes as `byte[]` (`ByteArray`), any other array as an `ArrayList`.
    private func alias(_ reference: TypeReference) -> String {
        switch reference {
        // `byte[]` too: a return type is spelled in the language and then read again.
        case .array(.named("Byte", [])), .array(.named("byte", [])):
            language == .java ? "byte[]" : "ByteArray"
        case .array(let element): "ArrayList<\(alias(element))>"
        case .named(let name, let arguments): alias(name, arity: arguments.count)
        }
    }

    /// A name: `TreatTypesAsStrings` first, then the language's alias, else the name itself (see
    /// ``ScriptTypeName``).
    func alias(_ name: String, arity: Int) -> String {
        if arity == 0, strings.contains(name) { return "String" }
        return ScriptTypeName.spelling(name, arity: arity, aliases: aliases, conflicts: conflicts, aritySeparator: "_")
    }

    /// `IReturnVoid`, or `IReturn<T>` with the operation's return type (or its response, under
    /// `AddReturnMarker`); nil for a type that is no request. The type is spelled as a member's
    /// and then read again as a type argument, as ServiceStack spells it.
    func returnMarker(for operation: MetadataOperation?, addsReturnMarker: Bool) -> String? {
        guard let operation else { return nil }
        if operation.returnsVoid { return "IReturnVoid" }
        let returned: TypeReference
        if let returnType = operation.returnType {
            returned = returnType.reference
        } else if addsReturnMarker, let response = operation.response {
            returned = TypeReference(type: response.name, genericArgs: response.genericArgs)
        } else {
            return nil
        }
        return "IReturn<\(argument(TypeReference(parsing: name(of: returned))))>"
    }

    /// `Name` or `Name<T, U>`.
    func declaredName(_ type: MetadataType) -> String {
        let parameters = type.genericArgs.map { argument(TypeReference(parsing: String($0.drop { $0 == "'" }))) }
        let name = alias(TypeReference.stripArity(type.name), arity: parameters.count)
        return parameters.isEmpty ? name : "\(name)<\(parameters.joined(separator: ", "))>"
    }
}
