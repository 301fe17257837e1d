/// How `/types/typescript` writes a .NET type (docs/servicestack.md#generated-dtos): numbers as
/// `number`, text, dates and times as `string`, collections as `T[]`, dictionaries as `{
/// [index:string]: V; }`, `Nullable<T>` as an optional member of type `T`, generic classes as
/// `Name<T>`, and a name declared with several arities with its arity (``QueryDb`2`` →
/// `QueryDb_2`).
struct TypeScriptTypeMap {
    /// Full names (``QueryDb`1``) written with their arity.
    var conflicts: Set<String> = []

    static let aliases: [String: String] = [
        "String": "string", "Boolean": "boolean", "DateTime": "string", "DateOnly": "string",
        "DateTimeOffset": "string",
        "TimeSpan": "string", "TimeOnly": "string", "Guid": "string", "Char": "string", "Byte": "number",
        "Int16": "number",
        "Int32": "number", "Int64": "number", "UInt16": "number", "UInt32": "number", "UInt64": "number",
        "Single": "number",
        "Double": "number", "Decimal": "number", "IntPtr": "number", "List": "Array", "Stream": "string",
        "HttpWebResponse": "Blob", "IDictionary": "any", "OrderedDictionary": "any", "Uri": "string", "Type": "string",
    ]
    /// Return types a request's `createResponse` cannot construct, by .NET name.
    static let returnAliases: [String: String] = ["Byte[]": "Uint8Array", "Stream": "Blob", "HttpWebResponse": "Blob"]

    static let sequences: Set<String> = ["List", "IEnumerable", "ICollection", "HashSet", "Queue", "Stack"]
    static let dictionaries: Set<String> = ["Dictionary", "IDictionary", "IOrderedDictionary"]

    /// A member's, base's or marker's type, and whether it was `Nullable<T>` (an optional member).
    func name(of reference: TypeReference) -> (name: String, nullable: Bool) {
        switch reference {
        case .named("Nullable", let arguments) where arguments.count == 1: (argument(arguments[0]), true)
        case .array(.named("Nullable", let arguments)) where arguments.count == 1:
            (argument(arguments[0]) + "[]", false)
        case .named(let name, let arguments) where arguments.count == 1 && Self.sequences.contains(name):
            ("\(argument(arguments[0]))[]", false)
        case .named(let name, let arguments) where arguments.count == 2 && Self.dictionaries.contains(name):
            ("{ [index:\(key(argument(arguments[0])))]: \(argument(arguments[1])); }", false)
        case .named(let name, let arguments) where !arguments.isEmpty:
            ("\(alias(name, arity: arguments.count))<\(arguments.map(argument).joined(separator: ", "))>", false)
        default: (alias(reference), false)
        }
    }

    /// A type argument, written as ServiceStack writes one inside another: `List<T>` as `T[]`,
    /// `Dictionary<K,V>` as an index type, other generics with their arguments joined by `,`.
    func argument(_ reference: TypeReference) -> String {
        switch reference {
        case .array(.named("Nullable", let arguments)) where arguments.count == 1: return argument(arguments[0]) + "[]"
        case .named("Nullable", let arguments) where arguments.count == 1: return alias(arguments[0])
        case .named("List", let arguments) where arguments.count == 1: return argument(arguments[0]) + "[]"
        case .named("Dictionary", let arguments) where arguments.count == 2:
            return "{ [index:\(key(argument(arguments[0])))]: \(argument(arguments[1])); }"
        case .named(let name, let arguments) where !arguments.isEmpty:
            return "\(alias(name, arity: arguments.count))<\(arguments.map(argument).joined(separator: ","))>"
        default: return alias(reference)
        }
    }

    /// A plain or array type: `Byte[]` as `string`, `T[]`, an alias or the bare name.
    private func alias(_ reference: TypeReference) -> String {
        switch reference {
        case .array(.named("Byte", [])): "string"
        case .array(let element): alias(element) + "[]"
        case .named(let name, let arguments): alias(name, arity: arguments.count)
        }
    }

    func alias(_ name: String, arity: Int) -> String {
        ScriptTypeName.spelling(name, arity: arity, aliases: Self.aliases, conflicts: conflicts, aritySeparator: "_")
    }

    /// An index signature's key: `string`, `number` or `boolean`, anything else as `string`.
    private func key(_ name: String) -> String { ["string", "number", "boolean"].contains(name) ? name : "string" }
}
