import MockStackCore

/// A whole `/types/fsharp` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's F# generator lays it out: the `(* Options: … *)` header (each option
/// behind `//` unless the query gave it a value) and a blank line, then one `namespace` for the
/// whole file and a blank line, an `open` per default namespace (``DotNetLayout``), then each
/// type after a blank line, indented by four spaces, in dependency order (F# reads a file top
/// down); a blank line ends the file.
///
/// The namespace is the `GlobalNamespace`, else the first (as .NET orders text) of the types'
/// namespaces that ends in `ServiceModel`, else the first of them.
public struct FSharpGenerator: DTOFileGenerator {
    let document: MetadataDocument
    public static let serviceStackVersion = "8.41"

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "GlobalNamespace", "MakeDataContractsExtensible", "AddReturnMarker", "AddDescriptionAsComments",
        "AddDataContractAttributes", "AddIndexesToDataMembers", "AddGeneratedCodeAttributes", "AddResponseStatus",
        "AddImplicitVersion", "ExportValueTypes", "IncludeTypes", "ExcludeTypes", "InitializeCollections",
        "AddNamespaces",
    ]
    /// Every option the F# generator reads.
    public static let options =
        headerOptions + ["BaseUrl", "WithoutOptions", "AddServiceStackTypes", "ExcludeNamespace", "DefaultNamespaces"]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forDotNet(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let layout = DotNetLayout(
            metadata: metadata, selection: selection, options: options, globalNamespace: nil, order: .byDependencies)
        var lines: [String] = []
        if !options.withoutOptions { lines += header(options, date: date, baseURL: baseURL) }
        let groups = !options.flag("ExcludeNamespace")
        if groups { lines += ["namespace \(namespace(options, layout))", ""] }
        lines += layout.defaultNamespaces.filter(CSharpGenerator.isNamespace).map { "open \($0)" }
        if options.flag("AddGeneratedCodeAttributes") { lines.append("open System.CodeDom.Compiler") }

        let writer = FSharpTypeWriter(
            options: CSharpTypeWriter.Options(options, version: Self.serviceStackVersion),
            types: CSharpTypeMap(options: options, types: layout.entries.map(\.type)),
            annotations: DotNetAnnotations(syntax: .fSharp, options: options, mergesNamespaces: true))
        for entry in layout.entries {
            lines.append("")
            lines += writer.write(entry).map { groups && !$0.isEmpty ? "    " + $0 : $0 }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// The one namespace: the `GlobalNamespace` when it is a name, else ServiceStack's pick among
    /// the types' namespaces, else `ServiceModel`.
    private func namespace(_ options: NativeTypesOptions, _ layout: DotNetLayout) -> String {
        if let given = options.text("GlobalNamespace"), CSharpGenerator.isNamespace(given) { return given }
        var seen: Set<String> = []
        let namespaces = layout.entries.compactMap(\.type.namespace).filter {
            CSharpGenerator.isNamespace($0) && seen.insert($0).inserted
        }.sorted { DotNetCollation.compare($0, $1) < 0 }
        return namespaces.first { $0.hasSuffix("ServiceModel") } ?? namespaces.first ?? "ServiceModel"
    }

    private func header(_ options: NativeTypesOptions, date: DateTimeValue, baseURL: String) -> [String] {
        DTOHeaderOpening.lines(
            "(* Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"], commentPrefix: "//",
            options: options, baseURL: baseURL, oneLine: Self.oneLine)
            + DotNetHeader.optionLines(Self.headerOptions, options: options, commentPrefix: "//", oneLine: Self.oneLine)
            + ["*)", ""]
    }

    /// A header value that stays on its line and inside the `(* … *)` comment, which F# nests:
    /// line breaks become spaces, and `*)` and `(*` are broken up.
    static func oneLine(_ value: String) -> String {
        SwiftHeader.oneLine(value, opening: ("(", "*"), closing: ("*", ")"))
    }
}
