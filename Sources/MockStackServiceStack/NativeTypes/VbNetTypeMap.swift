import MockStackCore

/// How `/types/vbnet` spells a .NET type (docs/servicestack.md#generated-dtos): VB.NET's own
/// names for `Int16`, `Int32`, `Int64` and `DateTime`, a generic type as `Name(Of A, B)` (also
/// inside an argument the metadata wrote as `List<Poco>`), an array as `T()`, and a name that is a
/// VB.NET keyword in brackets (`[Stop]`). Which member types turn into text is C#'s rule
/// (``CSharpTypeMap/declaredName(_:)``).
///
/// Every name is kept to the characters a type name may hold (``CSharpTypeMap/safe(_:)``).
enum VbNetTypeMap {
    /// The names VB.NET spells its own way.
    static let aliases = ["Int16": "Short", "Int32": "Integer", "Int64": "Long", "DateTime": "Date"]

    /// The words a member or enum name must be bracketed to use.
    static let keywords: Set<String> = [
        "Default", "Dim", "Catch", "Byte", "Char", "Short", "Integer", "Long", "UShort", "ULong", "Double", "Decimal",
        "String", "Object", "Each", "Error", "Finally", "Function", "Global", "Is", "If", "Imports", "Inherits", "Not",
        "IsNot", "Module", "MyBase", "Option", "Out", "Protected", "Return", "Shadows", "Static", "Then", "With",
        "When",
        "Operator", "Class", "Date", "End", "end", "True", "False", "Mod",
    ]

    /// A member's or enum member's name: an identifier, a keyword in brackets.
    static func name(_ name: String) -> String {
        let identifier = ScriptText.identifier(name)
        return keywords.contains(identifier) ? "[\(identifier)]" : identifier
    }

    /// A named type (`inherits`, `implements`, a return type).
    static func type(_ name: MetadataTypeName, keepsNamespace: Bool = false) -> String {
        type(name.name, name.genericArgs.isEmpty ? nil : name.genericArgs, keepsNamespace: keepsNamespace)
    }

    /// ServiceStack's VB.NET `Type(name, genericArgs)`: `Nullable(Of T)`, `Name(Of A, B)`, else the alias.
    static func type(_ name: String, _ arguments: [String]?, keepsNamespace: Bool = false) -> String {
        if let arguments, let first = arguments.first {
            if name == "Nullable`1" { return "Nullable(Of \(alias(first, keepsNamespace: keepsNamespace)))" }
            if name.containsMark("`") {
                let written = arguments.map { alias($0, keepsNamespace: keepsNamespace) }
                return nameOnly(name, keepsNamespace: keepsNamespace) + "(Of " + written.joined(separator: ", ") + ")"
            }
        }
        return alias(name, keepsNamespace: keepsNamespace)
    }

    /// ServiceStack's `TypeAlias`: `<…>` as `(Of …)`, an array of the alias as `T()`, VB.NET's
    /// own name, or the bare name.
    static func alias(_ name: String, keepsNamespace: Bool = false) -> String {
        let name = name.withoutParameterMark
        if name.containsMark("[") { return alias(String(name.leftPart("[")), keepsNamespace: keepsNamespace) + "()" }
        // Kept to a type name's characters first, so that only these brackets become parentheses.
        let written = aliases[name] ?? nameOnly(name, keepsNamespace: keepsNamespace)
        guard written.containsMark("<") || written.containsMark(">") else { return written }
        var text = ""
        for character in written {
            switch character {
            case "<": text += "(Of "
            case ">": text += ")"
            default: text.append(character)
            }
        }
        return text
    }

    /// The name before its arity, without its namespace unless `keepsNamespace`.
    static func nameOnly(_ name: String, keepsNamespace: Bool = false) -> String {
        let named = name.withoutParameterMark.leftPart("`")
        let bare = keepsNamespace ? named : named.lastRightPart(".")
        // An argument already written as `Name(Of T)` keeps its parentheses.
        return CSharpTypeMap.safe(String(bare), also: "()")
    }
}
