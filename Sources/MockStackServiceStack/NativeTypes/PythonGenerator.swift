import MockStackCore

/// A whole `/types/python` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's Python generator lays it out: the `""" Options: … """` header (each option
/// behind `#` unless the query gave it a value) and a blank line, an import per `DefaultImports`
/// entry (`module` or `module:name/name`), then every type in ``DTOLayout`` order, each after two
/// blank lines, and a last line break. The types the `servicestack` package defines (`IReturn`,
/// `ResponseStatus`, `QueryDb`, `Authenticate`, …) are left to it.
public struct PythonGenerator: DTOFileGenerator {
    let document: MetadataDocument
    public static let serviceStackVersion = "8.41"

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "GlobalNamespace", "AddServiceStackTypes", "AddResponseStatus", "AddImplicitVersion",
        "AddDescriptionAsComments",
        "IncludeTypes", "ExcludeTypes", "DefaultImports", "DataClass", "DataClassJson",
    ]
    /// Every option the Python generator reads.
    public static let options =
        headerOptions + ["BaseUrl", "WithoutOptions", "MakePropertiesOptional", "InitializeCollections"]

    static let defaultImports = [
        "datetime", "decimal", "marshmallow.fields:*", "servicestack:*", "typing:*", "dataclasses:dataclass/field",
        "dataclasses_json:dataclass_json/LetterCase/Undefined/config", "enum:Enum/IntEnum",
    ]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forScripts(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let layout = DTOLayout(
            metadata: metadata, selection: selection, leavingOut: DTOLayout.clientLibraryTypes,
            addsServiceStackTypes: options.flag("AddServiceStackTypes"))
        let imports = options.list("DefaultImports").isEmpty ? Self.defaultImports : options.list("DefaultImports")
        var lines: [String] = []
        if !options.withoutOptions {
            lines += header(options, imports: imports, date: date, baseURL: baseURL)
        }
        for entry in imports {
            guard let line = Self.importLine(entry) else { continue }
            lines.append(line)
        }
        if let namespace = options.text("GlobalNamespace"), !namespace.isEmpty {
            lines += ["", "# module \(ScriptText.identifier(namespace))"]
        }
        // The package's two-argument AutoQuery bases are `QueryDb2` and `QueryData2` whatever the file declares.
        let conflicts = layout.conflictingNames.union(["QueryDb`2", "QueryData`2"])
        let writer = PythonTypeWriter(options: options, conflicts: conflicts)
        for entry in layout.entries {
            lines += ["", ""] + writer.write(entry, in: layout)
        }
        if let namespace = options.text("GlobalNamespace"), !namespace.isEmpty { lines.append("") }
        return lines.joined(separator: "\n") + "\n\n"
    }

    private func header(
        _ options: NativeTypesOptions, imports: [String], date: DateTimeValue, baseURL: String
    ) -> [String] {
        var lines = DTOHeaderOpening.lines(
            "\"\"\" Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"],
            commentPrefix: "#", options: options, baseURL: baseURL, oneLine: Self.headerText)
        lines += DTOHeaderOpening.optionLines(
            Self.headerOptions, flags: ["AddServiceStackTypes", "AddResponseStatus", "AddDescriptionAsComments"],
            imports: imports, commentPrefix: "#", options: options,
            oneLine: Self.headerText)
        return lines + ["\"\"\"", ""]
    }

    /// `import module` or `from module import a, b`; nil for an entry that is not a module path.
    static func importLine(_ entry: String) -> String? {
        func isPath(_ text: Substring) -> Bool {
            !text.isEmpty
                && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
                    !$0.isEmpty && ScriptText.identifier(String($0)) == $0
                }
        }
        guard let colon = entry.firstIndex(of: ":") else { return isPath(entry[...]) ? "import \(entry)" : nil }
        let module = entry[..<colon]
        let names = entry[entry.index(after: colon)...].filter { $0 != "\"" && $0 != "'" }.split(separator: "/")
        guard isPath(module), !names.isEmpty, names.allSatisfy({ $0 == "*" || isPath($0) }) else { return nil }
        return "from \(module) import \(names.joined(separator: ", "))"
    }

    /// A header value that stays on its line and inside the `"""` string.
    static func headerText(_ value: String) -> String {
        ScriptAnnotations.oneLine(value).replacingTripleQuotes()
    }
}
