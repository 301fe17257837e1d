import MockStackCore

/// The attributes `/types/csharp` writes above a type, an enum member or a property
/// (docs/servicestack.md#generated-dtos): `[Route("/path", "GET")]` per route, the attributes the
/// metadata exports (`[Required]`, `[ApiMember(Description="…")]`, a validator's rule as its
/// constructor argument), `[DataContract]`/`[DataMember(…)]`, and a description as a
/// `///<summary>` comment or, when descriptions are not comments, a `[Description("…")]`.
struct CSharpAnnotations {
    /// `AddDescriptionAsComments`.
    let describesAsComments: Bool
    /// `AddDataContractAttributes`: every type and member is marked, with or without its own contract.
    let addsDataContracts: Bool
    /// `AddIndexesToDataMembers`: a data member says its position.
    let addsIndexes: Bool
    /// Whether the file merges the namespaces (`GlobalNamespace`), which turns a `typeof(A.B)`
    /// argument into `typeof(B)`.
    let mergesNamespaces: Bool

    /// The attributes whose arguments ServiceStack writes by position, by name.
    private static let positionalArguments: [String: Set<String>] = [
        "ValidateRequest": ["Validator"], "Validate": ["Validator"],
    ]

    /// `///<summary>`, `///text`, `///</summary>` (which does not set a member apart), or
    /// `[Description("text")]` (which does).
    func description(_ value: JSONValue?) -> (lines: [String], marks: Bool) {
        guard let text = value?.stringValue else { return ([], false) }
        if describesAsComments {
            return (["///<summary>", "///\(ScriptAnnotations.oneLine(text))", "///</summary>"], false)
        }
        return (["[Description(\(Self.quoted(text)))]"], true)
    }

    /// `[Route("/path")]` or `[Route("/path", "GET,POST")]`.
    func routes(_ routes: [MetadataRoute]) -> [String] {
        routes.map { route in
            let path = ScriptAnnotations.quoted(route.path)
            return route.verbs.isEmpty
                ? "[Route(\(path))]"
                : "[Route(\(path), \(ScriptAnnotations.quoted(route.verbs.joined(separator: ","))))]"
        }
    }

    /// One line per exported attribute: `[Name]` without arguments, else its constructor
    /// arguments or its named ones (`Name=value`).
    func attributes(_ list: JSONValue?) -> [String] {
        guard case .array(let items)? = list else { return [] }
        return items.compactMap { item -> String? in
            guard let name = item["name"]?.stringValue, SwiftAnnotations.isExported(name) else { return nil }
            let safeName = ScriptText.identifier(name)
            var arguments: [String] = []
            if case .array(let positional)? = item["constructorArgs"] {
                arguments = positional.map(argumentText)
            } else if case .array(let named)? = item["args"] {
                let byPosition = Self.positionalArguments[name] ?? []
                arguments = named.map { argument in
                    let argumentName = argument["name"]?.stringValue ?? ""
                    return byPosition.contains(argumentName)
                        ? argumentText(argument) : "\(ScriptText.identifier(argumentName))=\(argumentText(argument))"
                }
            }
            return arguments.isEmpty ? "[\(safeName)]" : "[\(safeName)(\(arguments.joined(separator: ", ")))]"
        }
    }

    /// `[EnumMember(Value="text")]`.
    func enumMember(_ value: String) -> String { "[EnumMember(Value=\(ScriptAnnotations.quoted(value)))]" }

    /// `[DataContract]` with its name and namespace; `[DataContract]` for a type without one
    /// when every type is marked.
    func dataContract(_ value: JSONValue?) -> [String] {
        guard case .object(let contract)? = value else { return addsDataContracts ? ["[DataContract]"] : [] }
        var arguments: [String] = []
        if let name = contract["name"]?.stringValue { arguments.append("Name=\(Self.quoted(name))") }
        if let namespace = contract["namespace"]?.stringValue {
            arguments.append("Namespace=\(Self.quoted(namespace))")
        }
        return ["[DataContract" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))") + "]"]
    }

    /// `[DataMember(Name="…", Order=1, IsRequired=true, EmitDefaultValue=false)]`; the member's
    /// position is its `Order` when indexes are added.
    func dataMember(_ value: JSONValue?, index: Int) -> [String] {
        guard case .object(let member)? = value else {
            guard addsDataContracts else { return [] }
            return [addsIndexes ? "[DataMember(Order=\(index))]" : "[DataMember]"]
        }
        var arguments: [String] = []
        if let name = member["name"]?.stringValue { arguments.append("Name=\(Self.quoted(name))") }
        if let order = member["order"]?.intValue {
            arguments.append("Order=\(order)")
        } else if addsIndexes {
            arguments.append("Order=\(index)")
        }
        if let required = member["isRequired"]?.boolValue { arguments.append("IsRequired=\(required)") }
        if let emits = member["emitDefaultValue"]?.boolValue { arguments.append("EmitDefaultValue=\(emits)") }
        return ["[DataMember" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))") + "]"]
    }

    /// An argument as C#: text escaped in quotes, `int.MaxValue` and the like for the extremes,
    /// `typeof(Name)` as it is (by its bare name when namespaces merge), anything else on its line.
    private func argumentText(_ argument: JSONValue) -> String {
        let type = argument["type"]?.stringValue ?? "String"
        guard let value = argument["value"]?.stringValue else { return "null" }
        switch (type, value) {
        case ("Int32", "-2147483648"): return "int.MinValue"
        case ("Int32", "2147483647"): return "int.MaxValue"
        case ("Int64", "-9223372036854775808"): return "long.MinValue"
        case ("Int64", "9223372036854775807"): return "long.MaxValue"
        default: break
        }
        if CSharpTypeMap.alias(type) == "string" { return ScriptAnnotations.quoted(value) }
        if value.hasPrefix("typeof("), value.hasSuffix(")") {
            let inner = String(value.dropFirst(7).dropLast())
            let name =
                mergesNamespaces ? CSharpTypeMap.nameOnly(inner) : CSharpTypeMap.nameOnly(inner, keepsNamespace: true)
            return "typeof(\(name))"
        }
        // Numbers, booleans and enum members: kept to what such a literal may hold.
        return String(value.filter { $0.isLetter || $0.isNumber || "_.-+".contains($0) })
    }

    /// `"text"` as ServiceStack quotes a name or namespace: line breaks and quotes left out.
    static func quoted(_ text: String) -> String {
        "\"" + ScriptAnnotations.oneLine(text).filter { $0 != "\"" && $0 != "\\" } + "\""
    }
}
