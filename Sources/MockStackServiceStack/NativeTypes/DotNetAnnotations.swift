import MockStackCore

/// The attributes the .NET files (`/types/csharp`, `/types/fsharp`, `/types/vbnet`) write above a type, an enum
/// member or a property (docs/servicestack.md#generated-dtos): `[Route("/path", "GET")]` per
/// route, the attributes the metadata exports (`[Required]`, `[ApiMember(Description="…")]`, a
/// validator's rule as its constructor argument in C#), `[DataContract]`/`[DataMember(…)]`, and a
/// description as a `///<summary>` comment or, when descriptions are not comments, a
/// `[Description("…")]`; each in its language's spelling (``DotNetAttributeSyntax``).
struct DotNetAnnotations {
    /// How the language spells an attribute.
    let syntax: DotNetAttributeSyntax
    /// `AddDescriptionAsComments`.
    let describesAsComments: Bool
    /// `AddDataContractAttributes`: every type and member is marked, with or without its own contract.
    let addsDataContracts: Bool
    /// `AddIndexesToDataMembers`: a data member says its position.
    let addsIndexes: Bool
    /// Whether the file merges the namespaces (`GlobalNamespace`), which turns a `typeof(A.B)`
    /// argument into `typeof(B)`.
    let mergesNamespaces: Bool

    /// The annotations a file's options ask for (`AddDescriptionAsComments`,
    /// `AddDataContractAttributes`, `AddIndexesToDataMembers`), in the language's `syntax`.
    init(syntax: DotNetAttributeSyntax, options: NativeTypesOptions, mergesNamespaces: Bool) {
        self.syntax = syntax
        describesAsComments = options.flag("AddDescriptionAsComments")
        addsDataContracts = options.flag("AddDataContractAttributes")
        addsIndexes = options.flag("AddIndexesToDataMembers")
        self.mergesNamespaces = mergesNamespaces
    }

    /// The lines above a type: its description, routes, exported attributes, data contract, and
    /// (given the release) the `GeneratedCode` attribute.
    func typeLines(_ entry: DotNetLayout.Entry, generatedCodeVersion: String?) -> [String] {
        let type = entry.type
        var lines = description(type.json["description"]).lines
        lines += routes(entry.operation?.routes ?? [])
        lines += attributes(type.json["attributes"])
        lines += dataContract(type.json["dataContract"])
        if let version = generatedCodeVersion {
            lines.append(syntax.attribute("GeneratedCode(\"AddServiceStackReference\", \"\(version)\")"))
        }
        return lines
    }

    /// The lines above a member (its description, data member at `index`, attributes) and
    /// whether they set it apart from the next member with a blank line.
    func memberLines(_ property: MetadataProperty, index: Int) -> (lines: [String], marks: Bool) {
        let description = description(property.json["description"])
        let dataMember = dataMember(property.json["dataMember"], index: index)
        let marks =
            description.marks || !dataMember.isEmpty || property.json["attributes"]?.arrayValue?.isEmpty == false
        return (description.lines + dataMember + attributes(property.json["attributes"]), marks)
    }

    /// A class's or interface's members as the .NET files lay them out: each property's
    /// ``memberLines(_:index:)`` and then its `declaration`, a marked one followed by a blank
    /// line; then, in a class, `responseStatus` (after a data member of its own) and
    /// `extensionData` when given and the type does not declare them itself.
    /// - Parameter statusAlwaysMarks: the status sets itself apart from `extensionData` even
    ///   without a data member (C#, F#); VB.NET's does only with one.
    func memberBlock(
        _ type: MetadataType, declaration: (MetadataProperty) -> String, responseStatus: String?,
        extensionData: String?, statusAlwaysMarks: Bool = true
    ) -> [String] {
        var lines: [String] = []
        var marked = false
        for (offset, property) in type.properties.enumerated() {
            if marked { lines.append("") }
            let annotated = memberLines(property, index: offset + 1)
            marked = annotated.marks
            lines += annotated.lines
            lines.append(declaration(property))
        }
        guard !type.isInterface else { return lines }
        if let responseStatus, !type.properties.contains(where: { $0.name == "ResponseStatus" }) {
            if marked { lines.append("") }
            let dataMember = dataMember(nil, index: type.properties.count + 1)
            marked = statusAlwaysMarks || !dataMember.isEmpty
            lines += dataMember + [responseStatus]
        }
        if let extensionData, !type.properties.contains(where: { $0.name == "ExtensionData" }) {
            if marked { lines.append("") }
            lines.append(extensionData)
        }
        return lines
    }

    /// `///<summary>`, `///text`, `///</summary>` (which sets a member apart only where the
    /// language says so), or `[Description("text")]` (which does).
    func description(_ value: JSONValue?) -> (lines: [String], marks: Bool) {
        guard let text = value?.stringValue else { return ([], false) }
        if describesAsComments {
            let (prefix, tag) = (syntax.docComment, syntax.summaryTag)
            return (
                ["\(prefix)<\(tag)>", prefix + ScriptAnnotations.oneLine(text), "\(prefix)</\(tag)>"],
                syntax.commentsMark
            )
        }
        return ([syntax.attribute("Description(\(Self.quoted(text)))")], true)
    }

    /// `[Route("/path")]` or `[Route("/path", "GET,POST")]`.
    func routes(_ routes: [MetadataRoute]) -> [String] {
        routes.map { route in
            let path = syntax.quote(route.path)
            return route.verbs.isEmpty
                ? syntax.attribute("Route(\(path))")
                : syntax.attribute("Route(\(path), \(syntax.quote(route.verbs.joined(separator: ","))))")
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
                let byPosition = syntax.positionalArguments[name] ?? []
                arguments = named.map { argument in
                    let argumentName = argument["name"]?.stringValue ?? ""
                    return byPosition.contains(argumentName)
                        ? argumentText(argument)
                        : ScriptText.identifier(argumentName) + syntax.assigns + argumentText(argument)
                }
            }
            return syntax.attribute(arguments.isEmpty ? safeName : "\(safeName)(\(arguments.joined(separator: ", ")))")
        }
    }

    /// `[EnumMember(Value="text")]`.
    func enumMember(_ value: String) -> String {
        syntax.attribute("EnumMember(Value\(syntax.assigns)\(syntax.quote(value)))")
    }

    /// `[DataContract]` with its name and namespace; `[DataContract]` for a type without one
    /// when every type is marked.
    func dataContract(_ value: JSONValue?) -> [String] {
        guard case .object(let contract)? = value else {
            return addsDataContracts ? [syntax.attribute("DataContract")] : []
        }
        var arguments: [String] = []
        if let name = contract["name"]?.stringValue { arguments.append("Name\(syntax.assigns)\(Self.quoted(name))") }
        if let namespace = contract["namespace"]?.stringValue {
            arguments.append("Namespace\(syntax.assigns)\(Self.quoted(namespace))")
        }
        return [syntax.attribute("DataContract" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))"))]
    }

    /// `[DataMember(Name="…", Order=1, IsRequired=true, EmitDefaultValue=false)]`; the member's
    /// position is its `Order` when indexes are added.
    func dataMember(_ value: JSONValue?, index: Int) -> [String] {
        guard case .object(let member)? = value else {
            guard addsDataContracts else { return [] }
            return [syntax.attribute(addsIndexes ? "DataMember(Order\(syntax.assigns)\(index))" : "DataMember")]
        }
        let assigns = syntax.assigns
        var arguments: [String] = []
        if let name = member["name"]?.stringValue { arguments.append("Name\(assigns)\(Self.quoted(name))") }
        if let order = member["order"]?.intValue {
            arguments.append("Order\(assigns)\(order)")
        } else if addsIndexes {
            arguments.append("Order\(assigns)\(index)")
        }
        if let required = member["isRequired"]?.boolValue {
            arguments.append("IsRequired\(assigns)\(syntax.boolean(required))")
        }
        if let emits = member["emitDefaultValue"]?.boolValue {
            arguments.append("EmitDefaultValue\(assigns)\(syntax.boolean(emits))")
        }
        return [syntax.attribute("DataMember" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))"))]
    }

    /// An argument in the language: text escaped in quotes, `int.MaxValue` and the like for the
    /// extremes, `typeof(Name)` as the language writes it (by its bare name when namespaces merge
    /// or the language always merges them), anything else on its line.
    private func argumentText(_ argument: JSONValue) -> String {
        let type = argument["type"]?.stringValue ?? "String"
        guard let value = argument["value"]?.stringValue else { return syntax.nothing }
        let extreme: (String, String)? =
            switch (type, value) {
            case ("Int32", "-2147483648"): ("Int32", "MinValue")
            case ("Int32", "2147483647"): ("Int32", "MaxValue")
            case ("Int64", "-9223372036854775808"): ("Int64", "MinValue")
            case ("Int64", "9223372036854775807"): ("Int64", "MaxValue")
            default: nil
            }
        if let (type, member) = extreme { return syntax.typeName(type) + "." + member }
        if CSharpTypeMap.alias(type) == "string" { return syntax.quote(value) }
        if value.hasPrefix("typeof("), value.hasSuffix(")") {
            let inner = String(value.dropFirst(7).dropLast())
            let bare = mergesNamespaces || syntax.typeOfIsBare
            return syntax.typeOf(
                bare ? CSharpTypeMap.nameOnly(inner) : CSharpTypeMap.nameOnly(inner, keepsNamespace: true))
        }
        // Numbers, booleans and enum members: kept to what such a literal may hold.
        return String(value.filter { $0.isLetter || $0.isNumber || "_.-+".contains($0) })
    }

    /// `"text"` as ServiceStack quotes a name or namespace: line breaks and quotes left out.
    static func quoted(_ text: String) -> String {
        "\"" + ScriptAnnotations.oneLine(text).filter { $0 != "\"" && $0 != "\\" } + "\""
    }
}

/// How a .NET language spells what ``DotNetAnnotations`` writes.
struct DotNetAttributeSyntax {
    /// What opens and closes an attribute: `[`/`]`, `[<`/`>]`, `<`/`>`.
    let opening: String, closing: String
    /// What sets a named argument: `=`, or VB.NET's `:=`.
    let assigns: String
    /// The attributes whose arguments the generator writes by position, by name.
    let positionalArguments: [String: Set<String>]
    /// Whether a `///<summary>` comment sets a member apart from the next, as an attribute does.
    let commentsMark: Bool
    /// Whether `typeof` always names the bare type, namespaces merged or not.
    let typeOfIsBare: Bool
    /// How the language names `Int32` and `Int64` before `.MaxValue`.
    let typeName: @Sendable (String) -> String
    /// `typeof(Name)`, `typeof<Name>`, `GetType(Name)`.
    let typeOf: @Sendable (String) -> String
    /// What starts a documentation comment's line (`///`, `'''`) and its summary tag (`summary`, `Summary`).
    var docComment = "///", summaryTag = "summary"
    /// Text in quotes: escaped (C#, F#), or without what VB.NET's strings cannot hold.
    var quote: @Sendable (String) -> String = ScriptAnnotations.quoted
    /// A missing value: `null`, `Nothing`.
    var nothing = "null"
    /// `true`, `True`.
    let boolean: @Sendable (Bool) -> String

    /// `[Name(arguments)]` in the language's brackets.
    func attribute(_ body: String) -> String { opening + body + closing }

    static let cSharp = DotNetAttributeSyntax(
        opening: "[", closing: "]", assigns: "=",
        positionalArguments: ["ValidateRequest": ["Validator"], "Validate": ["Validator"]], commentsMark: false,
        typeOfIsBare: false, typeName: { CSharpTypeMap.aliases[$0] ?? $0 }, typeOf: { "typeof(\($0))" },
        boolean: { $0 ? "true" : "false" })

    static let fSharp = DotNetAttributeSyntax(
        opening: "[<", closing: ">]", assigns: "=", positionalArguments: [:], commentsMark: true, typeOfIsBare: true,
        typeName: { $0 }, typeOf: { "typeof<\($0)>" }, boolean: { $0 ? "true" : "false" })

    static let visualBasic = DotNetAttributeSyntax(
        opening: "<", closing: ">", assigns: ":=", positionalArguments: [:], commentsMark: false, typeOfIsBare: true,
        typeName: { VbNetTypeMap.aliases[$0] ?? $0 }, typeOf: { "GetType(\($0))" }, docComment: "'''",
        summaryTag: "Summary", quote: DotNetAnnotations.quoted, nothing: "Nothing", boolean: { $0 ? "true" : "false" })
}
