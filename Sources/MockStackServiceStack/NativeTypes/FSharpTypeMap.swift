import MockStackCore

/// How `/types/fsharp` spells a .NET type (docs/servicestack.md#generated-dtos): by its .NET
/// name (`Int32`, `Nullable<Int32>`: F# takes them as they are), `List<T>` as F#'s
/// `ResizeArray<T>`, an array as `T[]`, a generic type as `Name<A, B>` with each argument as the
/// metadata wrote it, and never with its namespace. Which member types turn into text is C#'s
/// rule (``CSharpTypeMap/declaredName(_:)``).
///
/// Every name is kept to the characters a type name may hold (``CSharpTypeMap/safe(_:)``).
enum FSharpTypeMap {
    /// The names F# spells its own way.
    static let aliases = ["List": "ResizeArray"]

    /// A named type (`inherits`, a return type).
    static func type(_ name: MetadataTypeName) -> String {
        type(name.name, name.genericArgs.isEmpty ? nil : name.genericArgs)
    }

    /// ServiceStack's F# `Type(name, genericArgs)`: `Name<A, B>` for a generic name, else the alias.
    static func type(_ name: String, _ arguments: [String]?) -> String {
        if let arguments, name.containsMark("`") {
            return alias(nameOnly(name)) + "<" + arguments.map(alias).joined(separator: ", ") + ">"
        }
        return alias(name)
    }

    /// An array of the alias, F#'s own name, or the bare name.
    static func alias(_ name: String) -> String {
        if name.containsMark("[") { return alias(String(name.leftPart("["))) + "[]" }
        return aliases[name] ?? nameOnly(name)
    }

    /// The name before its arity, without its namespace; a type parameter keeps its `'`.
    static func nameOnly(_ name: String) -> String {
        let bare = name.leftPart("`").lastRightPart(".")
        let quote = bare.utf8.first == UInt8(ascii: "'") ? "'" : ""
        return quote + CSharpTypeMap.safe(String(bare.withoutParameterMark))
    }

    /// A member's type.
    static func memberType(_ property: MetadataProperty, _ types: CSharpTypeMap) -> String {
        type(types.declaredName(property), property.genericArgs)
    }
}
