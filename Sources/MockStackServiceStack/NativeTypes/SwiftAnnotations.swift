import MockStackCore

/// The comments `/types/swift` writes above a type or a member
/// (docs/servicestack.md#generated-dtos): a description as a `/** … */` doc comment, `// @Route(…)`
/// per route, the exported attributes as `// @Name(…)`, and the data contract as `// @DataContract`
/// / `// @DataMember(…)`.
struct SwiftAnnotations {
    /// `AddDescriptionAsComments`.
    let describes: Bool

    /// Attributes written as comments; `Route` is written from the operation's routes, and
    /// `DataContract`/`DataMember` from their own metadata fields. Others (`Tag`, `QueryDb`, …)
    /// are left out, as the metadata's export list leaves them out.
    static let exportedAttributes: Set<String> = [
        "Flags", "Api", "ApiResponse", "ApiMember", "StringLength", "Ignore", "IgnoreDataMember", "Computed", "Meta",
        "Required", "References", "AutoQueryViewer", "AutoQueryViewerField",
    ]

    /// A type's lines: description, routes, attributes, then `// @DataContract` (not for interfaces).
    func typeComments(_ type: MetadataType, routes: [MetadataRoute]) -> [String] {
        var lines = description(type.json["description"])
        for route in routes {
            let path = Self.quoted(route.path)
            lines.append(
                route.verbs.isEmpty
                    ? "// @Route(\(path))" : "// @Route(\(path), \(Self.quoted(route.verbs.joined(separator: ","))))")
        }
        lines += attributes(type.json["attributes"])
        if !type.isInterface, case .object(let contract)? = type.json["dataContract"] {
            var arguments: [String] = []
            if let name = contract["name"]?.stringValue { arguments.append("Name=\(Self.quoted(name))") }
            if let namespace = contract["namespace"]?.stringValue {
                arguments.append("Namespace=\(Self.quoted(namespace))")
            }
            lines.append(
                arguments.isEmpty ? "// @DataContract" : "// @DataContract(\(arguments.joined(separator: ", ")))")
        }
        return lines
    }

    /// A member's description lines (which do not set it apart) and its marks, the
    /// `// @DataMember(…)` and attribute lines (which do).
    func memberComments(_ property: MetadataProperty) -> (description: [String], marks: [String]) {
        var marks: [String] = []
        if case .object(let member)? = property.json["dataMember"] {
            var arguments: [String] = []
            if let name = member["name"]?.stringValue { arguments.append("Name=\(Self.quoted(name))") }
            if let order = member["order"]?.intValue { arguments.append("Order=\(order)") }
            if let required = member["isRequired"]?.boolValue { arguments.append("IsRequired=\(required)") }
            if let emits = member["emitDefaultValue"]?.boolValue { arguments.append("EmitDefaultValue=\(emits)") }
            marks.append(arguments.isEmpty ? "// @DataMember" : "// @DataMember(\(arguments.joined(separator: ", ")))")
        }
        return (description(property.json["description"]), marks + attributes(property.json["attributes"]))
    }

    /// `/**`, `* text`, `*/` when descriptions are comments; the text kept on one line and
    /// unable to close the comment early.
    func description(_ value: JSONValue?) -> [String] {
        guard describes, let text = value?.stringValue else { return [] }
        return ["/**", "* \(SwiftHeader.oneLine(text.filter { $0 != "\r" }))", "*/"]
    }

    /// `// @Name(…)` per exported attribute: its constructor arguments if it has any, else its
    /// named arguments in the order given; `// @Name()` with neither.
    func attributes(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            guard let name = item["name"]?.stringValue, Self.isExported(name) else { return nil }
            var arguments: [String] = []
            if case .array(let positional)? = item["constructorArgs"], !positional.isEmpty {
                arguments = positional.map(Self.argumentValue)
            } else if case .array(let named)? = item["args"] {
                arguments = named.compactMap { arg in
                    arg["name"]?.stringValue.map { "\($0)=\(Self.argumentValue(arg))" }
                }
            }
            return "// @\(name)(\(arguments.joined(separator: ", ")))"
        }
    }

    static func isExported(_ name: String) -> Bool {
        exportedAttributes.contains(name) || name.hasPrefix("Validate") || (name.hasPrefix("Is") && name.count > 2)
    }

    /// Strings quoted; `Int32`/`Int64` extremes as `Int32.max` and the like; other values as they are.
    private static func argumentValue(_ argument: JSONValue) -> String {
        let value = argument["value"]?.stringValue ?? ""
        switch argument["type"]?.stringValue ?? "String" {
        case "Int32" where value == "2147483647": return "Int32.max"
        case "Int32" where value == "-2147483648": return "Int32.min"
        case "Int64" where value == "9223372036854775807": return "Int64.max"
        case "Int64" where value == "-9223372036854775808": return "Int64.min"
        case "String": return quoted(value)
        default:
            // Numbers, booleans and enum members as they are, but never text that leaves the comment's line.
            return SwiftHeader.oneLine(value)
        }
    }

    /// `"text"` with `"` and `\` escaped, on one line.
    static func quoted(_ value: String) -> String {
        var escaped = ""
        for character in SwiftHeader.oneLine(value.filter { $0 != "\r" }) {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"" + escaped + "\""
    }
}
