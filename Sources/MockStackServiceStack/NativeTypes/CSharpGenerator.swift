import MockStackCore

/// A whole `/types/csharp` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's C# generator lays it out: the `/* Options: … */` header (each option
/// behind `//` unless the query gave it a value) and a blank line, a `using` per namespace
/// (``DotNetLayout``), a blank line, then per namespace `namespace Name` and `{`, its types in
/// ``DotNetLayout`` order indented by four spaces, each followed by a blank line, and `}`; a
/// blank line ends the file. A `GlobalNamespace` puts every type in that one namespace.
public struct CSharpGenerator: DTOFileGenerator {
    let document: MetadataDocument
    public static let serviceStackVersion = "8.41"
    /// The interfaces a class may name (see ``CSharpTypeWriter/interfaces``).
    private let interfaces: Set<String>

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
        interfaces = CSharpTypeWriter.interfaces(in: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "GlobalNamespace", "MakePartial", "MakeVirtual", "MakeInternal", "MakeDataContractsExtensible",
        "AddNullableAnnotations", "AddReturnMarker", "AddDescriptionAsComments", "AddDataContractAttributes",
        "AddIndexesToDataMembers", "AddGeneratedCodeAttributes", "AddResponseStatus", "AddImplicitVersion",
        "InitializeCollections", "ExportValueTypes", "IncludeTypes", "ExcludeTypes", "AddNamespaces",
        "AddDefaultXmlNamespace",
    ]
    /// Every option the C# generator reads.
    public static let options =
        headerOptions + ["BaseUrl", "WithoutOptions", "AddServiceStackTypes", "ExcludeNamespace", "DefaultNamespaces"]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forDotNet(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let globalNamespace = options.text("GlobalNamespace").flatMap { Self.isNamespace($0) ? $0 : nil }
        let layout = DotNetLayout(
            metadata: metadata, selection: selection, options: options, globalNamespace: globalNamespace)
        var lines: [String] = []
        if !options.withoutOptions { lines += header(options, date: date, baseURL: baseURL) }
        lines += layout.namespaces.filter(Self.isNamespace).map { "using \($0);" }
        if options.flag("AddGeneratedCodeAttributes") { lines.append("using System.CodeDom.Compiler;") }
        let defaults = Set(options.list("DefaultNamespaces"))
        if options.flag("AddDataContractAttributes"), let xmlNamespace = options.text("AddDefaultXmlNamespace") {
            lines.append("")
            let contract = DotNetAnnotations.quoted(xmlNamespace)
            for namespace in layout.namespaces where !defaults.contains(namespace) && Self.isNamespace(namespace) {
                lines.append("[assembly: ContractNamespace(\(contract), ClrNamespace=\"\(namespace)\")]")
            }
        }
        lines.append("")

        let writer = CSharpTypeWriter(
            options: CSharpTypeWriter.Options(options, version: Self.serviceStackVersion),
            types: CSharpTypeMap(options: options, types: layout.entries.map(\.type)),
            annotations: DotNetAnnotations(syntax: .cSharp, options: options, mergesNamespaces: globalNamespace != nil),
            interfaces: interfaces)
        let groups = !options.flag("ExcludeNamespace")
        var current: String?
        for entry in layout.entries {
            if groups {
                let own = entry.type.namespace ?? ""
                let namespace = globalNamespace ?? (Self.isNamespace(own) ? own : ScriptText.identifier(own))
                if namespace != current {
                    if current != nil { lines += ["}", ""] }
                    current = namespace
                    lines += ["namespace \(namespace)", "{"]
                }
            }
            lines += writer.write(entry).map { groups && !$0.isEmpty ? "    " + $0 : $0 } + [""]
        }
        if current != nil { lines.append("}") }
        return lines.joined(separator: "\n") + "\n\n"
    }

    private func header(_ options: NativeTypesOptions, date: DateTimeValue, baseURL: String) -> [String] {
        var lines = DTOHeaderOpening.lines(
            "/* Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"],
            commentPrefix: "//", options: options, baseURL: baseURL, oneLine: SwiftHeader.oneLine)
        lines += DotNetHeader.optionLines(
            Self.headerOptions, options: options, commentPrefix: "//", oneLine: SwiftHeader.oneLine)
        return lines + ["*/", ""]
    }

    /// `Name` or `Name.Space`: what may follow `using` or `namespace`.
    static func isNamespace(_ text: String) -> Bool {
        SwiftTypeWriter.isQualifiedName(text) && !text.hasSuffix(".") && !text.contains("..")
    }
}
