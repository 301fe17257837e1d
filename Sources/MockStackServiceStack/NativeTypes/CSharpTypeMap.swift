import MockStackCore

/// How `/types/csharp` spells a .NET type (docs/servicestack.md#generated-dtos): the C# keyword
/// for the built-in types (`Int32` → `int`), `Nullable<T>` as `T?`, a generic type as
/// `Name<A, B>` with each argument as the metadata wrote it (`Dictionary<String,Poco>` stays so:
/// ServiceStack aliases only a whole argument), and a struct the metadata does not describe as
/// `string` unless `ExportValueTypes` is on.
///
/// Every name is kept to the characters a C# type name may hold, so that metadata can only ever
/// write names into the file.
struct CSharpTypeMap {
    /// `ExportValueTypes`: a .NET struct keeps its own name.
    let exportsValueTypes: Bool
    /// The .NET names of every member type the file's types declare, and whether each is one of
    /// the host's own value types (not `System`, not an enum), which `Nullable<T>` of it turns into text.
    let userValueTypes: Set<String>

    static let aliases: [String: String] = [
        "String": "string", "Boolean": "bool", "Byte": "byte", "Int16": "short", "Int32": "int", "Int64": "long",
        "UInt16": "ushort", "UInt32": "uint", "UInt64": "ulong", "Single": "float", "Double": "double",
        "Decimal": "decimal",
    ]

    /// The map a file's `ExportValueTypes` asks for, over the member types of the file's `types`.
    init(options: NativeTypesOptions, types: [MetadataType]) {
        exportsValueTypes = options.flag("ExportValueTypes")
        // ServiceStack looks for the first member of the type to tell a struct from a built-in.
        var seen: Set<String> = []
        var user: Set<String> = []
        for property in types.flatMap(\.properties) {
            let name = property.typeName
            guard seen.insert(name).inserted else { continue }
            if !Self.isSystem(property) && !property.isEnum { user.insert(name) }
        }
        userValueTypes = user
    }

    private static func isSystem(_ property: MetadataProperty) -> Bool {
        property.namespace?.hasPrefix("System") ?? false
    }

    /// A member's type.
    func memberType(_ property: MetadataProperty) -> String {
        Self.type(declaredName(property), property.genericArgs, keepsNamespace: true)
    }

    /// The .NET name ServiceStack writes a member as: its own, but text for a struct of the host
    /// (and for `Nullable<T>` of one) unless `ExportValueTypes`.
    func declaredName(_ property: MetadataProperty) -> String {
        let declared = property.typeName
        guard property.isValueType, !property.isEnum, !exportsValueTypes else { return declared }
        guard Self.isSystem(property) else { return "String" }
        let arguments = property.genericArgs ?? []
        guard declared == "Nullable`1", arguments.count == 1 else { return declared }
        return userValueTypes.contains(arguments[0]) ? "String" : declared
    }

    /// A named type (`inherits`, `implements`, a return type).
    static func type(_ name: MetadataTypeName, keepsNamespace: Bool = false) -> String {
        type(name.name, name.genericArgs.isEmpty ? nil : name.genericArgs, keepsNamespace: keepsNamespace)
    }

    /// ServiceStack's `Type(name, genericArgs)`: `T?` (and `T?[]`) for `Nullable`, `Name<A, B>`
    /// for a generic name, else the alias.
    static func type(_ name: String, _ arguments: [String]?, keepsNamespace: Bool = false) -> String {
        if let arguments, let first = arguments.first {
            if name.hasPrefix("Nullable`1") {
                let nullable = alias(first, keepsNamespace: keepsNamespace) + "?"
                return name.containsMark("[") ? nullable + "[]" : nullable
            }
            if name.containsMark("`") {
                let written = arguments.map { alias($0, keepsNamespace: keepsNamespace) }
                return nameOnly(name, keepsNamespace: keepsNamespace) + "<" + written.joined(separator: ", ") + ">"
            }
        }
        return alias(name, keepsNamespace: keepsNamespace)
    }

    /// ServiceStack's `TypeAlias`: an array of the alias, the C# keyword, or the bare name.
    static func alias(_ name: String, keepsNamespace: Bool = false) -> String {
        let name = name.withoutParameterMark
        if name.containsMark("[") { return alias(String(name.leftPart("[")), keepsNamespace: keepsNamespace) + "[]" }
        return aliases[name] ?? nameOnly(name, keepsNamespace: keepsNamespace)
    }

    /// The name before its arity, without its namespace unless `keepsNamespace`.
    static func nameOnly(_ name: String, keepsNamespace: Bool = false) -> String {
        let bare = name.withoutParameterMark.leftPart("`")
        return safe(String(keepsNamespace ? bare : bare.lastRightPart(".")))
    }

    /// A type name kept to what C# can hold there: letters, digits, `_`, `.`, `<`, `>`, `,`, `?`,
    /// `[`, `]`, spaces and `also` (VB.NET's parentheses); anything else becomes `_`.
    static func safe(_ text: String, also: String = "") -> String {
        // Nearly every name is ASCII letters and digits: that is checked on the bytes first.
        if text.utf8.allSatisfy({ isASCIITypeByte($0) || also.utf8.contains($0) }) { return text }
        let allowed = { (scalar: Unicode.Scalar) in isTypeCharacter(scalar) || also.unicodeScalars.contains(scalar) }
        guard !text.unicodeScalars.allSatisfy(allowed) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { allowed($0) ? $0 : "_" }))
    }

    private static func isASCIITypeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","),
            UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: " "):
            true
        default: false
        }
    }

    private static func isTypeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.<>,?[] ".unicodeScalars.contains(scalar)
    }

    /// Whether a member is one whose collection `InitializeCollections` starts empty: a list,
    /// set, dictionary, queue, stack or array.
    static func isCollection(_ property: MetadataProperty) -> Bool {
        let declared = property.typeName
        return ["List`1", "HashSet`1", "Dictionary`2", "Queue`1", "Stack`1"].contains(declared)
            || declared.containsMark("[")
    }
}
