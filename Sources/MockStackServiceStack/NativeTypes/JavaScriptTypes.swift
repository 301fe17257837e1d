import MockStackCore

/// What the two JavaScript files (`/types/mjs`, `/types/js`) take from the TypeScript model
/// (docs/servicestack.md#generated-dtos): ServiceStack's generators for them wrap its TypeScript
/// generator, so the names, bases, responses and methods are TypeScript's with the type
/// arguments cut off, which JavaScript cannot write.
struct JavaScriptTypes {
    /// The TypeScript writer whose model the files share.
    let typeScript: TypeScriptTypeWriter

    /// The layout's types that become code: classes and enums (an interface has none).
    static func written(_ layout: DTOLayout) -> [DTOLayout.Entry] {
        layout.entries.filter { !$0.type.isInterface || $0.type.isEnum }
    }

    /// What a request returning bytes or a stream makes: ServiceStack's `ReturnTypeAliases` as it
    /// has them (AI Server's `dtos.mjs`: `createResponse() { return new Blob() }` for `byte[]`).
    static let returnAliases = ["Byte[]": "Blob", "Stream": "Blob", "HttpWebResponse": "Blob"]

    /// The name a class or enum is declared by (`QueryDb_2` where several arities are).
    func name(_ type: MetadataType) -> String { typeScript.className(type) }

    /// The base a class extends (`Array` for a list, `Dictionary` for a dictionary), nil for none.
    func base(_ type: MetadataType) -> String? {
        type.inherits.map { Self.withoutArguments(typeScript.declarationType($0)) }
    }

    /// What a request's `createResponse` returns (`''`, `[]`, `new HelloResponse()`); nil when
    /// its marker names no response, `""` when it returns nothing (`IReturnVoid`).
    func responseValue(_ operation: MetadataOperation) -> String? {
        guard let response = typeScript.response(of: operation, aliases: Self.returnAliases) else { return nil }
        guard case .type(let typeName) = response else { return "" }
        let returned = Self.withoutArguments(typeName)
        if let value = TypeScriptTypeWriter.plainValue(of: returned) { return value }
        return returned.hasSuffix("[]") ? "[]" : "new \(returned)()"
    }

    /// An enum's statements inside its `(function (Name) { … })`: `Name["A"] = "a"` for a
    /// member named by text (its `[EnumMember]` value or its name), `Name[Name["A"] = 1] = "A"`
    /// for a numbered one, each ended by `terminator`.
    func enumMembers(_ type: MetadataType, terminator: String) -> [String] {
        let name = name(type)
        return Self.enumMembers(of: type).map { member in
            let key = ScriptAnnotations.quoted(member.name)
            switch member.value {
            case .text(let text): return "\(name)[\(key)] = \(ScriptAnnotations.quoted(text))\(terminator)"
            case .number(let number): return "\(name)[\(name)[\(key)] = \(number)] = \(key)\(terminator)"
            }
        }
    }

    /// An enum member's value: text or a number.
    enum EnumValue {
        case text(String)
        case number(Int)
    }

    /// Each member's .NET name and value: its `[EnumMember]` value, else its number, else its name.
    static func enumMembers(of type: MetadataType) -> [(name: String, value: EnumValue)] {
        let memberValues = type.json["enumMemberValues"]?.arrayValue?.map { $0.stringValue } ?? []
        return type.enumNames.enumerated().map { index, name in
            if memberValues.indices.contains(index), let value = memberValues[index] { return (name, .text(value)) }
            if type.enumValues.indices.contains(index), let value = Int(type.enumValues[index]) {
                return (name, .number(value))
            }
            return (name, .text(name))
        }
    }

    /// `Name<T>` as `Name`, `Array<T>` as `Array`: what JavaScript can name.
    static func withoutArguments(_ typeName: String) -> String {
        String(typeName.prefix { $0 != "<" })
    }
}
