import MockStackCore

/// The attribute comments the script generators (Python `# @Name(…)`, TypeScript
/// `// @Name(…)`) write above a type or member: the attributes ServiceStack exports to its
/// metadata (the list the Swift writer shares), a route per `[Route]`, arguments as .NET wrote
/// them, strings JSON-quoted.
struct ScriptAnnotations {
    /// `#` or `//`.
    let prefix: String
    /// Whether a .NET type's values are written quoted (besides `String`).
    let isText: (String) -> Bool
    /// Attributes left out (Python leaves the data contract to its dataclasses).
    var ignored: Set<String> = []
    /// Whether an attribute without arguments is named in camelCase (`// @flags()`), as Dart's
    /// generator names it.
    var camelCasesBareNames = false

    /// `# @Route("/path")` or `# @Route("/path", "GET,POST")` per route.
    func routes(_ routes: [MetadataRoute]) -> [String] {
        routes.map { route in
            let path = Self.quoted(route.path)
            return route.verbs.isEmpty
                ? "\(prefix) @Route(\(path))"
                : "\(prefix) @Route(\(path), \(Self.quoted(route.verbs.joined(separator: ","))))"
        }
    }

    /// One line per attribute; `nil` when the member has no attributes at all (an empty list
    /// when it has only ignored ones, which still sets the member apart, as ServiceStack does).
    func attributes(_ list: JSONValue?) -> [String]? {
        guard case .array(let items)? = list, !items.isEmpty else { return nil }
        return items.compactMap { item -> String? in
            guard let name = item["name"]?.stringValue, !ignored.contains(name), SwiftAnnotations.isExported(name)
            else { return nil }
            var arguments: [String] = []
            if case .array(let positional)? = item["constructorArgs"], !positional.isEmpty {
                arguments = positional.map(argumentText)
            } else if case .array(let named)? = item["args"] {
                arguments = named.map { "\(Self.oneLine($0["name"]?.stringValue ?? ""))=\(argumentText($0))" }
            }
            let written = camelCasesBareNames && arguments.isEmpty ? NameCase.camel(name) : name
            return "\(prefix) @\(Self.oneLine(written))(\(arguments.joined(separator: ", ")))"
        }
    }

    /// `# @DataContract`, with its name and namespace when it has them.
    func dataContract(_ value: JSONValue?) -> [String] {
        guard !ignored.contains("DataContract"), case .object(let contract)? = value else { return [] }
        var arguments: [String] = []
        if let name = contract["name"]?.stringValue { arguments.append("Name=\(Self.quoted(name))") }
        if let namespace = contract["namespace"]?.stringValue {
            arguments.append("Namespace=\(Self.quoted(namespace))")
        }
        return ["\(prefix) @DataContract" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")]
    }

    /// `# @DataMember(Name="…", Order=1, IsRequired=true, EmitDefaultValue=false)`.
    func dataMember(_ value: JSONValue?) -> [String] {
        guard !ignored.contains("DataMember"), case .object(let member)? = value else { return [] }
        var arguments: [String] = []
        if let name = member["name"]?.stringValue { arguments.append("Name=\(Self.quoted(name))") }
        if let order = member["order"]?.intValue { arguments.append("Order=\(order)") }
        if let required = member["isRequired"]?.boolValue { arguments.append("IsRequired=\(required)") }
        if let emits = member["emitDefaultValue"]?.boolValue { arguments.append("EmitDefaultValue=\(emits)") }
        return ["\(prefix) @DataMember" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")]
    }

    /// An argument: text types quoted, anything else as written (never leaving its line).
    private func argumentText(_ argument: JSONValue) -> String {
        guard let value = argument["value"]?.stringValue else { return "null" }
        let type = argument["type"]?.stringValue ?? "String"
        return type == "String" || type == "string" || isText(type) ? Self.quoted(value) : Self.oneLine(value)
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        // Most text needs no escape: quotes, backslashes, controls and the line separators'
        // lead byte are what would.
        if !text.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 == 0xE2 || $0 == 0xC2 }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += "\\u" + String(zeroPadded: scalar.value, radix: 16, width: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Text kept on its comment's line: line breaks dropped, as ServiceStack's `SafeComment` does.
    static func oneLine(_ text: String) -> String {
        // Line breaks, U+0085 and the line separators are the bytes below, or begin with them.
        if !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0xC2 || $0 == 0xE2 }) { return text }
        return String(
            text.unicodeScalars.filter {
                $0 != "\n" && $0 != "\r" && $0 != "\u{2028}" && $0 != "\u{2029}" && $0 != "\u{85}"
            }.map(Character.init))
    }
}
