import MockStackCore

/// The annotations and doc comments ServiceStack's Java and Kotlin generators write above a type
/// or a member (docs/servicestack.md#generated-dtos): a `@Route` per route, the exported
/// attributes by their arguments' names, `@DataContract` and `@DataMember` (with Gson's
/// `@SerializedName` for a renamed member), and a description as a `/** … */` comment.
struct JVMAnnotations {
    /// `.class` (Java) or `::class` (Kotlin): how `typeof(T)` is written.
    let classLiteral: String
    /// `AddDescriptionAsComments`.
    let describes: Bool
    /// `AddDataContractAttributes`: a contract on every type and member.
    let addsDataContracts: Bool
    /// `AddIndexesToDataMembers`: each member's place as its order.
    let indexesDataMembers: Bool

    init(options: NativeTypesOptions, classLiteral: String) {
        self.classLiteral = classLiteral
        describes = options.flag("AddDescriptionAsComments")
        addsDataContracts = options.flag("AddDataContractAttributes")
        indexesDataMembers = options.flag("AddIndexesToDataMembers")
    }

    /// A type's lines: its description, routes, attributes and data contract.
    func typeLines(_ type: MetadataType, routes: [MetadataRoute]) -> [String] {
        comment(type.json["description"]) + annotations(Self.routeAttributes(routes))
            + annotations(type.json["attributes"]?.arrayValue ?? []) + dataContract(type.json["dataContract"])
    }

    /// A `@Route` per route: the path alone, or path and verbs by name.
    private static func routeAttributes(_ routes: [MetadataRoute]) -> [JSONValue] {
        routes.map { route in
            let path: JSONValue = ["name": "Path", "type": "String", "value": .string(route.path)]
            guard !route.verbs.isEmpty else { return ["name": "Route", "constructorArgs": [path]] }
            let verbs: JSONValue = [
                "name": "Verbs", "type": "String", "value": .string(route.verbs.joined(separator: ",")),
            ]
            return ["name": "Route", "args": [path, verbs]]
        }
    }

    /// One annotation per attribute, its arguments by name. The JVM allows an annotation once, so
    /// a repeat is written as a comment, and so is one with several constructor arguments.
    func annotations(_ attributes: [JSONValue]) -> [String] {
        var seen: Set<String> = []
        return attributes.compactMap { attribute in
            guard let name = attribute["name"]?.stringValue, SwiftAnnotations.isExported(name) || name == "Route"
            else { return nil }
            var prefix = seen.insert(name).inserted ? "" : "// "
            let positional = attribute["constructorArgs"]?.arrayValue ?? []
            let named = attribute["args"]?.arrayValue ?? []
            if positional.count > 1 { prefix = "// " }
            let arguments = (positional.isEmpty ? named : positional).map { argument in
                let name = Self.argumentName(argument["name"]?.stringValue ?? "", positional: !positional.isEmpty)
                return "\(name)=\(value(argument))"
            }
            return "\(prefix)@\(ScriptText.identifier(name))(\(arguments.joined(separator: ", ")))"
        }
    }

    /// A constructor argument is named by the attribute's property of that name, which .NET
    /// capitalises (`maximumLength` → `MaximumLength`); an unnamed one (`arg0`) keeps its name.
    private static func argumentName(_ name: String, positional: Bool) -> String {
        let name = ScriptText.identifier(name)
        guard positional, !(name.hasPrefix("arg") && name.dropFirst(3).allSatisfy(\.isNumber)), let first = name.first
        else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// Text quoted, `typeof(T)` as a class literal, anything else as written (kept to a literal).
    private func value(_ argument: JSONValue) -> String {
        guard let value = argument["value"]?.stringValue else { return "null" }
        let type = argument["type"]?.stringValue ?? "String"
        if type == "String" || type == "string" { return JavaText.literal(value) }
        if value.hasPrefix("typeof("), value.hasSuffix(")") {
            let name = value.dropFirst("typeof(".count).dropLast().split(separator: ".").last.map(String.init) ?? ""
            return ScriptText.identifier(name) + classLiteral
        }
        // Numbers, booleans and enum members; anything else would be code, so it is quoted.
        let isLiteral = value.allSatisfy { $0.isLetter || $0.isNumber || "._-+".contains($0) }
        return isLiteral ? value : JavaText.literal(value)
    }

    /// `@DataContract`, with its name and namespace when it has them; `@DataContract()` on every
    /// type under `AddDataContractAttributes`.
    private func dataContract(_ value: JSONValue?) -> [String] {
        guard case .object(let contract)? = value else { return addsDataContracts ? ["@DataContract()"] : [] }
        var arguments: [String] = []
        if let name = contract["name"]?.stringValue { arguments.append("Name=\(JavaText.literal(name))") }
        if let namespace = contract["namespace"]?.stringValue {
            arguments.append("Namespace=\(JavaText.literal(namespace))")
        }
        return ["@DataContract" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")]
    }

    /// `@DataMember(…)` and, for a renamed member, the name Gson reads (`@SerializedName`).
    /// - Parameter index: the member's place, the order `AddIndexesToDataMembers` gives it.
    func dataMember(_ value: JSONValue?, index: Int) -> [String] {
        guard case .object(let member)? = value else {
            guard addsDataContracts else { return [] }
            return [indexesDataMembers ? "@DataMember(Order=\(index))" : "@DataMember()"]
        }
        var arguments: [String] = []
        let name = member["name"]?.stringValue
        if let name { arguments.append("Name=\(JavaText.literal(name))") }
        if let order = member["order"]?.intValue {
            arguments.append("Order=\(order)")
        } else if indexesDataMembers {
            arguments.append("Order=\(index)")
        }
        if let required = member["isRequired"]?.boolValue { arguments.append("IsRequired=\(required)") }
        if let emits = member["emitDefaultValue"]?.boolValue { arguments.append("EmitDefaultValue=\(emits)") }
        var lines = ["@DataMember" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")]
        if let name { lines.append("@SerializedName(\(JavaText.literal(name)))") }
        return lines
    }

    /// A member's lines above its declaration (description, data member, attributes), whether
    /// they set it apart (then a blank line follows it), its field name, and the `@SerializedName`
    /// that gives Gson its JSON name where the field name cannot be it (a capitalised reserved word).
    /// - Parameter index: the member's place, the order `AddIndexesToDataMembers` gives it.
    func member(_ property: MetadataProperty, index: Int, keywords: Set<String>) -> JVMMember {
        let marks =
            dataMember(property.json["dataMember"], index: index)
            + annotations(property.json["attributes"]?.arrayValue ?? [])
        let jsonName = NameCase.camel(ScriptText.identifier(property.name))
        let field = JVMDeclarations.fieldName(property.name, keywords: keywords)
        let renamed = property.json["dataMember"]?["name"]?.stringValue == nil && field != jsonName
        return JVMMember(
            lines: comment(property.json["description"]) + marks, isMarked: !marks.isEmpty, field: field,
            serializedName: renamed ? "@SerializedName(\"\(jsonName)\") " : "")
    }

    /// `/**`, `* text`, `*/` when descriptions are comments.
    func comment(_ value: JSONValue?) -> [String] {
        guard describes, let text = value?.stringValue else { return [] }
        return ["/**", "* \(JavaText.comment(text))", "*/"]
    }
}

/// What ``JVMAnnotations/member(_:index:keywords:)`` works out for a member.
struct JVMMember {
    let lines: [String]
    let isMarked: Bool
    let field: String
    /// `@SerializedName("int") ` or nothing, written before the declaration.
    let serializedName: String
}
