import MockStackCore

/// How `/types/dart` writes a .NET type (docs/servicestack.md#generated-dtos), over the names
/// and generic arguments as metadata spells them (``List`1`` with `["Poco"]`, `Byte[]`,
/// `Dictionary<String,Poco>`), because Dart's rules turn on those spellings: numbers as `int` or
/// `double`, text and GUIDs as `String`, dates as `DateTime`, times as `Duration`, bytes as
/// `Uint8List`, collections as `List<T>`, dictionaries as `Map<K,V?>` (a nested one as
/// `Map<K,V>`), `Nullable<T>` as `T`, and a name declared with several arities with its arity
/// run on (``QueryDb`2`` → `QueryDb2`).
struct DartTypeMap {
    /// Full names (``QueryDb`2``) written with their arity.
    let conflicts: Set<String>

    static let aliases: [String: String] = [
        "Object": "dynamic", "String": "String", "Boolean": "bool", "DateTime": "DateTime", "DateOnly": "DateTime",
        "DateTimeOffset": "DateTime", "TimeSpan": "Duration", "TimeOnly": "Duration", "Guid": "String",
        "Char": "String", "Byte": "int", "Int16": "int", "Int32": "int", "Int64": "int", "UInt16": "int",
        "UInt32": "int", "UInt64": "int", "Single": "double", "Double": "double", "Decimal": "double",
        "IntPtr": "int", "List": "List", "Byte[]": "Uint8List", "Stream": "Uint8List",
        "HttpWebResponse": "Uint8List", "IDictionary": "dynamic", "Type": "String",
    ]

    /// What a new value of a type is, by .NET or Dart name: a request's `createResponse()` and
    /// the registry's factories use it where `Name()` would not compile.
    static let defaultValues: [String: String] = [
        "String": "\"\"", "string": "\"\"", "Boolean": "false", "boolean": "false", "Guid": "\"\"", "Char": "\"\"",
        "int": "0", "float": "0", "double": "0", "Byte": "0", "Int16": "0", "Int32": "0", "Int64": "0",
        "UInt16": "0", "UInt32": "0", "UInt64": "0", "Single": "0", "Double": "0", "Decimal": "0", "IntPtr": "0",
        "number": "0", "List": "[]", "Byte[]": "Uint8List(0)", "Stream": "Uint8List(0)",
        "Uint8List": "Uint8List(0)", "DateTime": "DateTime(0)", "DateOnly": "DateTime(0)",
        "DateTimeOffset": "DateTime(0)",
    ]

    /// Types whose JSON value is the Dart value itself, read and written without a converter.
    static let basicJSONTypes: Set<String> = [
        "String", "Boolean", "Guid", "Char", "Byte", "Int16", "Int32", "Int64", "UInt16", "UInt32", "UInt64",
        "Single", "Double", "Decimal", "int", "bool", "Dictionary<String,String>",
    ]

    /// The converters for the two Dart types JSON does not give as they are.
    static let jsonConverters = ["double": "toDouble", "Map<String,String?>": "toStringMap"]

    static let sequences: Set<String> = [
        "List`1", "IList`1", "IEnumerable`1", "ICollection`1", "HashSet`1", "Queue`1", "ConcurrentQueue`1", "Stack`1",
        "ConcurrentStack`1", "IEnumerable", "ArrayList",
    ]
    static let dictionaries: Set<String> = [
        "Dictionary`2", "IDictionary`2", "IOrderedDictionary`2", "ConcurrentDictionary`2", "OrderedDictionary",
        "SortedList`2", "SortedList", "StringDictionary", "IDictionary", "IOrderedDictionary", "Hashtable",
    ]

    /// A type by its metadata name and generic arguments (each in C# syntax).
    func type(_ name: String, _ arguments: [String]) -> String {
        guard !arguments.isEmpty else { return alias(Self.strippingNullable(name)) }
        if name == "Nullable`1" { return argument(arguments[0]) }
        if name == "Nullable`1[]" { return "List<\(argument(arguments[0]))?>" }
        if Self.sequences.contains(name) { return Self.strippingNullable("List<\(argument(arguments[0]))>") }
        if Self.dictionaries.contains(name), arguments.count > 1 {
            return "Map<\(argument(arguments[0])),\(argument(arguments[1]))?>"
        }
        guard name.containsMark("`") else { return alias(name) }
        return "\(alias(name))<\(arguments.map(argument).joined(separator: ","))>"
    }

    /// A type a metadata entry names (a base, an interface, a return type).
    func type(_ name: MetadataTypeName) -> String { type(name.name, name.genericArgs) }

    /// A generic argument written in C# syntax (`Dictionary<String,Poco>`), Dart's way:
    /// `Nullable<T>` as `T`, dictionaries as `Map`, sets as `Set`, a conflicting name with its arity.
    func argument(_ text: String) -> String { convert(DartTypeNode(parsing: text[...].withoutParameterMark)) }

    private func convert(_ node: DartTypeNode) -> String {
        if node.text == "Nullable", let first = node.children.first { return alias(first.text) }
        var name = node.text == "Dictionary" ? "Map" : node.text == "HashSet" ? "Set" : node.text
        if conflicts.contains("\(name)`\(node.children.count)") { name += String(node.children.count) }
        let aliased = alias(name)
        return node.children.isEmpty ? aliased : "\(aliased)<\(node.children.map(convert).joined(separator: ","))>"
    }

    /// A plain name: `Byte[]` as `Uint8List`, other arrays as `List<T>`, an alias, or the bare name.
    func alias(_ type: String) -> String {
        let type = type.withoutParameterMark
        if type == "Byte[]" { return "Uint8List" }
        if type.containsMark("[") { return "List<\(alias(String(type.leftPart("["))))>" }
        return Self.aliases[type] ?? nameOnly(type)
    }

    /// The name without its namespace, and without its arity unless it conflicts; a trailing
    /// `?` (a nullable argument) is kept.
    func nameOnly(_ type: String) -> String {
        if type.utf8.last == UInt8(ascii: "?") { return nameOnly(String(type.dropLast())) + "?" }
        let name = conflicts.contains(type) ? type.filter { $0 != "`" } : TypeReference.stripArity(type)
        return ScriptText.identifier(name.containsMark(".") ? String(name.lastRightPart(".")) : name)
    }

    /// The .NET spelling the registry looks defaults up by (`Byte[]`, `List<Poco>`, `Int32`).
    func rawType(_ name: String, _ arguments: [String]) -> String {
        guard !arguments.isEmpty else { return Self.strippingNullable(name) }
        if name == "Nullable`1" { return rawArgument(arguments[0]) }
        guard name.containsMark("`") else { return name }
        return "\(nameOnly(name))<\(arguments.map(rawArgument).joined(separator: ","))>"
    }

    func rawArgument(_ text: String) -> String { raw(DartTypeNode(parsing: text[...].withoutParameterMark)) }

    func raw(_ node: DartTypeNode) -> String {
        let name = nameOnly(node.text)
        return node.children.isEmpty ? name : "\(name)<\(node.children.map(raw).joined(separator: ","))>"
    }

    // MARK: Members

    /// A member's declared .NET type, as ServiceStack reads it: a value type the metadata does
    /// not describe (a .NET struct, or `Nullable<T>` of one) travels as `String`; `structs` are
    /// the names whose first member in the metadata is such a value type.
    static func declaredType(_ property: MetadataProperty, structs: Set<String>) -> String {
        let declared = property.typeName
        guard property.isValueType, !property.isEnum else { return declared }
        let isSystem = property.namespace?.hasPrefix("System") ?? false
        guard isSystem else { return "String" }
        let arguments = Self.arguments(property)
        if declared == "Nullable`1", arguments.count == 1, structs.contains(arguments[0]) { return "String" }
        return declared
    }

    static func arguments(_ property: MetadataProperty) -> [String] {
        (property.genericArgs ?? [])
    }

    /// A member's Dart type, without the `?` every member gets.
    func memberType(_ property: MetadataProperty, structs: Set<String>) -> String {
        let name = type(Self.declaredType(property, structs: structs), Self.arguments(property))
        return name.hasSuffix("?") ? String(name.dropLast()) : name
    }

    /// The .NET spelling of a member's type, for the registry.
    func rawMemberType(_ property: MetadataProperty, structs: Set<String>) -> String {
        let name = rawType(Self.declaredType(property, structs: structs), Self.arguments(property))
        return name.hasSuffix("?") ? String(name.dropLast()) : name
    }

    /// Whether a member is read and written through `JsonConverters` with its type's name.
    func convertsJSON(_ property: MetadataProperty) -> Bool {
        let declared = property.typeName
        let arguments = Self.arguments(property)
        let name = declared == "Nullable`1" && !arguments.isEmpty ? argument(arguments[0]) : declared
        return !Self.basicJSONTypes.contains(name) && !name.containsMark("'")
            && !Self.basicJSONTypes.contains(rawType(declared, arguments))
    }

    /// `Nullable<T>` inside a name removed (`Nullable<Byte>[]` → `Byte[]`).
    static func strippingNullable(_ type: String) -> String {
        guard type.containsMark("<") else { return type }
        // Worked on the bytes: the names are ASCII, and `<`, `>` and the marker are.
        let bytes = Array(type.utf8)
        let marker = Array("Nullable<".utf8)
        guard bytes.count > marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                bytes[$0..<($0 + marker.count)].elementsEqual(marker)
            })
        else { return type }
        var depth = 1
        for index in (start + marker.count)..<bytes.count {
            if bytes[index] == UInt8(ascii: "<") { depth += 1 }
            guard bytes[index] == UInt8(ascii: ">") else { continue }
            depth -= 1
            if depth == 0 {
                let kept = bytes[..<start] + bytes[(start + marker.count)..<index] + bytes[(index + 1)...]
                return String(decoding: kept, as: UTF8.self)
            }
        }
        return type
    }

    /// `List<T>()` as the literal `<T>[]` (the constructor is deprecated).
    static func literal(_ expression: String) -> String {
        guard expression.hasPrefix("List<"), expression.hasSuffix(">()") else { return expression }
        return String(expression.dropFirst(4).dropLast(2)) + "[]"
    }
}

/// A C#-syntax type split at its generic brackets as ServiceStack splits one: the text before
/// the first `<`, then each top-level argument; text after a closing `>` (`?`, `[]`) is dropped,
/// and a plain argument keeps it (`String?`).
struct DartTypeNode {
    var text: String
    var children: [DartTypeNode] = []

    init(parsing definition: Substring) {
        let bytes = definition.utf8
        guard let open = bytes.firstIndex(of: UInt8(ascii: "<")) else {
            text = String(definition.trimmingASCIISpace())
            return
        }
        text = String(definition[..<open].trimmingASCIISpace())
        var depth = 0
        var start = bytes.index(after: open)
        var index = start
        // On the bytes: the brackets and commas are ASCII, so each is a character boundary.
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "<"): depth += 1
            case UInt8(ascii: ">") where depth == 0:
                children.append(DartTypeNode(parsing: definition[start..<index]))
                return
            case UInt8(ascii: ">"): depth -= 1
            case UInt8(ascii: ",") where depth == 0:
                children.append(DartTypeNode(parsing: definition[start..<index]))
                start = bytes.index(after: index)
            default: break
            }
            index = bytes.index(after: index)
        }
    }
}
