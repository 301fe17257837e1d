/// How `/types/python` writes a .NET type (docs/servicestack.md#generated-dtos): scalars by their Python counterparts
/// (`Int32` → `int`, `DateTime` → `datetime.datetime`), collections as `List[T]` and
/// `Dict[K, V]`, `Nullable<T>` as `Optional[T]`, generic classes as `Name[T]`, and a name
/// declared with several arities with its arity (``QueryDb`2`` → `QueryDb2`).
struct PythonTypeMap {
    /// Full names (``Page`1``) written with their arity.
    var conflicts: Set<String> = []

    static let aliases: [String: String] = [
        "String": "str", "Boolean": "bool", "DateTime": "datetime.datetime", "DateOnly": "datetime.datetime",
        "DateTimeOffset": "datetime.datetime", "TimeSpan": "datetime.timedelta", "TimeOnly": "datetime.timedelta",
        "Guid": "str", "Char": "str", "Byte": "int", "Int16": "int", "Int32": "int", "Int64": "int", "UInt16": "int",
        "UInt32": "int", "UInt64": "int", "Single": "float", "Double": "float", "Decimal": "Decimal", "IntPtr": "int",
        "List": "List", "Stream": "bytes", "HttpWebResponse": "bytes", "IDictionary": "Dict",
        "OrderedDictionary": "Dict",
        "Uri": "str", "Type": "str",
    ]

    /// What Python names a member after with a trailing `_` (keywords and the type names above).
    static let reserved: Set<String> = Set([
        "and", "as", "assert", "break", "class", "continue", "def", "del", "elif", "else", "except", "False", "finally",
        "for",
        "from", "global", "if", "import", "in", "is", "lambda", "None", "nonlocal", "not", "or", "pass", "raise",
        "return",
        "True", "try", "while", "with", "yield",
    ]).union(aliases.values)

    /// The default of a member that is neither optional nor a collection, by .NET type.
    static let defaults: [String: String] = [
        "Boolean": "False", "DateTime": "datetime.datetime(1, 1, 1)", "DateOnly": "datetime.datetime(1, 1, 1)",
        "DateTimeOffset": "datetime.datetime(1, 1, 1)", "TimeSpan": "datetime.timedelta()",
        "TimeOnly": "datetime.timedelta()",
        "Byte": "0", "Int16": "0", "Int32": "0", "Int64": "0", "UInt16": "0", "UInt32": "0", "UInt64": "0",
        "Single": "0.0",
        "Double": "0.0", "Decimal": "decimal.Decimal(0)", "IntPtr": "0",
    ]

    static let sequences: Set<String> = [
        "List", "IList", "IEnumerable", "ICollection", "HashSet", "ISet", "IReadOnlyList", "IReadOnlyCollection",
        "Queue", "Stack",
        "SortedSet", "LinkedList", "Collection", "ReadOnlyCollection",
    ]
    static let dictionaries: Set<String> = [
        "Dictionary", "IDictionary", "IReadOnlyDictionary", "SortedDictionary", "ConcurrentDictionary",
        "IOrderedDictionary", "SortedList",
    ]

    /// The Python spelling of a member's, base's or return marker's type.
    func name(of reference: TypeReference) -> String {
        switch reference {
        case .array(.named("Byte", [])): return "bytes"
        case .array(.named("Nullable", let arguments)) where arguments.count == 1:
            return "List[Optional[\(element(arguments[0]))]]"
        case .array(let item): return "List[\(element(item))]"
        case .named(let name, let arguments):
            switch (name, arguments.count) {
            case (_, 0): return alias(name, arity: 0)
            case ("Nullable", 1): return "Optional[\(self.name(of: arguments[0]))]"
            case (_, 2) where Self.dictionaries.contains(name):
                return "Dict[\(key(element(arguments[0]))), \(element(arguments[1]))]"
            case (_, 1) where Self.sequences.contains(name): return "List[\(element(arguments[0]))]"
            default: return "\(alias(name, arity: arguments.count))[\(arguments.map(element).joined(separator: ", "))]"
            }
        }
    }

    /// A type argument: `Nullable<T>` is `T` there.
    private func element(_ reference: TypeReference) -> String {
        if case .named("Nullable", let arguments) = reference, arguments.count == 1 { return name(of: arguments[0]) }
        return name(of: reference)
    }

    /// A dictionary key: `str`, `bool` or `int`, anything else as `str`.
    private func key(_ name: String) -> String { ["str", "bool", "int"].contains(name) ? name : "str" }

    /// A named type's spelling: its alias, else its name without namespace, and without its
    /// arity unless the file declares the name with several.
    func alias(_ name: String, arity: Int) -> String {
        ScriptTypeName.spelling(name, arity: arity, aliases: Self.aliases, conflicts: conflicts, aritySeparator: "")
    }

    /// A member's name: snake_case, `_` after a reserved word.
    static func memberName(_ name: String) -> String {
        let snake = NameCase.snake(name)
        return reserved.contains(snake) ? snake + "_" : snake
    }

    /// An enum member's name: a name with `_` upper-cased as it is, any other as its member
    /// name upper-cased (`Value1` → `VALUE1`, `camelUPPER` → `CAMEL_U_P_P_E_R`, `MP3` → `M_P3`,
    /// `Global` → `GLOBAL_`), as the real files have them.
    static func enumMemberName(_ name: String) -> String {
        name.containsMark("_") ? name.uppercased() : memberName(name).uppercased()
    }
}
