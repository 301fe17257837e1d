/// How `/types/php` writes a .NET type (docs/servicestack.md#generated-dtos): numbers as `int` or
/// `float`, text as `string`, dates as `DateTime`, times as `DateInterval`, a `List<T>` member as
/// `array<T>` but a list inside another type as `T[]`, a dictionary as `array<K,V>` (its key
/// `string` unless it is a `string`), and a generic class's name with its arity when it has more
/// than one parameter (``QueryDb`2`` → `QueryDb2`) or shares its name with a plain class.
///
/// ServiceStack's PHP generator works on the type's text; the rules here give the same text from
/// a ``TypeReference``, and the few that read the text back (`phpType`) take text.
struct PhpTypeMap {
    /// Generic types with one parameter whose name a plain class also has (``HelloBase`1``).
    var conflicts: Set<String> = []

    static let aliases: [String: String] = [
        "String": "string", "Boolean": "bool", "DateTime": "DateTime", "DateOnly": "DateTime",
        "DateTimeOffset": "DateTime", "TimeSpan": "DateInterval", "TimeOnly": "DateInterval", "Guid": "string",
        "Char": "string", "Byte": "int", "Int16": "int", "Int32": "int", "Int64": "int", "UInt16": "int",
        "UInt32": "int", "UInt64": "int", "Single": "float", "Double": "float", "Decimal": "float", "IntPtr": "int",
        "List": "array", "Stream": "ByteArray", "HttpWebResponse": "ByteArray", "IDictionary": "array",
        "OrderedDictionary": "array", "Uri": "string", "Type": "string",
    ]
    /// What a request's `IReturn<T>` names for a return type the client reads as bytes.
    static let returnAliases: [String: String] = [
        "Byte[]": "ByteArray", "Stream": "ByteArray", "HttpWebResponse": "ByteArray",
    ]

    /// A member's initial value by its type (.NET or PHP name), when it is not optional. The
    /// generator also reads the kind of a type back from these (`0` an `int`, `0.0` a `float`).
    static let defaultValues: [String: String] = [
        "String": "''", "string": "''", "Boolean": "false", "boolean": "false", "DateTime": "new DateTime()",
        "DateOnly": "new DateTime()", "DateTimeOffset": "new DateTime()", "TimeSpan": "new DateInterval('P0D')",
        "TimeOnly": "new DateInterval('P0D')", "Guid": "''", "Char": "''", "int": "0", "float": "0.0", "double": "0",
        "Byte": "0", "Int16": "0", "Int32": "0", "Int64": "0", "UInt16": "0", "UInt32": "0", "UInt64": "0",
        "Single": "0", "Double": "0.0", "Decimal": "0.0", "IntPtr": "0", "List": "[]",
    ]
    /// Value types whose JSON needs converting (dates and times): never assigned as they come.
    static let convertedValueTypes: Set<String> = ["DateTime", "DateOnly", "DateTimeOffset", "TimeSpan", "TimeOnly"]

    /// Collections, by the name a member's `type` gives (with its arity).
    static let arrayTypes: Set<String> = [
        "List`1", "IList`1", "IEnumerable`1", "ICollection`1", "HashSet`1", "Queue`1", "Stack`1", "IEnumerable",
    ]
    /// Dictionaries, by the name a member's `type` gives (with its arity).
    static let dictionaryTypes: Set<String> = [
        "Dictionary`2", "IDictionary`2", "IOrderedDictionary`2", "OrderedDictionary", "StringDictionary",
        "IDictionary", "IOrderedDictionary",
    ]

    /// A member's, marker's or return type as a whole: `List<T>` as `array<T>`, a dictionary as
    /// `array<K,V>`, `Nullable<T>` as `T`, another generic type as `Name<A, B>`, else its alias.
    func name(of reference: TypeReference) -> String {
        switch reference {
        case .named(let name, let arguments) where !arguments.isEmpty:
            if name == "Nullable" { return argument(arguments[0]) }
            if Self.arrayTypes.contains("\(name)`\(arguments.count)") { return "array<\(argument(arguments[0]))>" }
            if Self.dictionaryTypes.contains("\(name)`\(arguments.count)") {
                return "array<\(Self.key(argument(arguments[0]))),\(argument(arguments[1]))>"
            }
            return "\(alias(name))<\(arguments.map(argument).joined(separator: ", "))>"
        case .array(.named("Nullable", let arguments)) where arguments.count == 1:
            return "array<\(argument(arguments[0]))>"
        default:
            return alias(reference)
        }
    }

    /// A type argument, as ServiceStack writes one inside another: `List<T>` as `T[]`, a
    /// dictionary as `array<K,V>`, `Nullable<T>` as `T`, other generics with their arguments
    /// joined by `,`.
    func argument(_ reference: TypeReference) -> String {
        switch reference {
        case .named("Nullable", let arguments) where arguments.count == 1: return alias(arguments[0])
        case .named("List", let arguments) where arguments.count == 1: return argument(arguments[0]) + "[]"
        case .named("Dictionary", let arguments) where arguments.count == 2:
            return "array<\(Self.key(argument(arguments[0]))),\(argument(arguments[1]))>"
        case .named(let name, let arguments) where !arguments.isEmpty:
            return "\(alias(name))<\(arguments.map(argument).joined(separator: ","))>"
        default: return alias(reference)
        }
    }

    /// A base class: a list's or dictionary's as `array<T>`, any other by its class name.
    func declaration(_ base: MetadataTypeName) -> String {
        let reference = base.reference
        if case .named(_, let arguments) = reference, !arguments.isEmpty {
            if Self.arrayTypes.contains(base.name) { return "array<\(argument(arguments[0]))>" }
            if Self.dictionaryTypes.contains(base.name) { return "array<\(argument(arguments[1]))>" }
        }
        return className(base.name, arity: base.genericArgs.count)
    }

    /// A declared class's name: without its arity, but for a generic class with several
    /// parameters (`QueryDb2`) or with one whose name a plain class has (`HelloBase1`).
    func className(_ name: String, arity: Int) -> String {
        let bare = alias(name)
        if arity > 1 || (arity == 1 && conflicts.contains(name)) { return bare + String(arity) }
        return bare
    }

    /// A plain or array type: `Byte[]` as `ByteArray`, `T[]`, an alias or the bare name.
    private func alias(_ reference: TypeReference) -> String {
        switch reference {
        case .array(.named("Byte", [])): "ByteArray"
        case .array(let element): alias(element) + "[]"
        case .named(let name, _): alias(name)
        }
    }

    /// A name's alias, else the name without arity or namespace, kept a name.
    func alias(_ name: String) -> String {
        let name = name.withoutParameterMark
        if let alias = Self.aliases[name] { return alias }
        return ScriptText.identifier(String(name.leftPart("`").lastRightPart(".")))
    }

    /// A dictionary's key: `string`, `boolean` or `number` as they are, anything else `string`.
    private static func key(_ name: String) -> String {
        ["string", "boolean", "number"].contains(name) ? name : "string"
    }

    /// The PHP class a type's text names, as the generator reads it back: `string`, `array` for
    /// any array, a generic as it is, `int`, `float` or `bool` for a number or flag type, else
    /// the text itself.
    static func phpType(_ text: String) -> String {
        if text.lowercased() == "string" { return "string" }
        if text.hasPrefix("array") { return "array" }
        if text.containsMark("<") { return text }
        switch defaultValues[text] {
        case "0": return "int"
        case "0.0": return "float"
        case "false": return "bool"
        default: return text
        }
    }

    /// What a member that is not optional starts as: `[]` for an array, `''`, `0`, `false`,
    /// `new DateTime()` for the simple types; nil (so `null`) for any other.
    static func defaultValue(_ type: String) -> String? {
        if type == "any" { return "(object)[]" }
        if type.hasSuffix("[]") { return "[]" }
        return defaultValues[type]
    }
}
