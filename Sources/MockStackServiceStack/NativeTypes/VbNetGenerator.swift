import MockStackCore

/// A whole `/types/vbnet` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's VB.NET generator lays it out: the `' Options:` header of `'` comment
/// lines (each option behind `'''` unless the query gave it a value, then `'`) and a blank line,
/// an `Imports` per namespace (``DotNetLayout``), a blank line, then `Namespace Global` around a
/// `Namespace Name` … `End Namespace` per namespace, its types in ``DotNetLayout`` order (as C#'s),
/// each after a blank line; a blank line ends the file.
public struct VbNetGenerator: DTOFileGenerator {
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
        "GlobalNamespace", "MakePartial", "MakeVirtual", "MakeDataContractsExtensible", "AddReturnMarker",
        "AddDescriptionAsComments", "AddDataContractAttributes", "AddIndexesToDataMembers",
        "AddGeneratedCodeAttributes",
        "AddResponseStatus", "AddImplicitVersion", "InitializeCollections", "ExportValueTypes", "IncludeTypes",
        "ExcludeTypes", "AddNamespaces", "AddDefaultXmlNamespace",
    ]
    /// Every option the VB.NET generator reads.
    public static let options =
        headerOptions + ["BaseUrl", "WithoutOptions", "AddServiceStackTypes", "DefaultNamespaces"]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forDotNet(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let globalNamespace = options.text("GlobalNamespace").flatMap { CSharpGenerator.isNamespace($0) ? $0 : nil }
        let layout = DotNetLayout(
            metadata: metadata, selection: selection, options: options, globalNamespace: globalNamespace)
        var lines: [String] = []
        if !options.withoutOptions { lines += header(options, date: date, baseURL: baseURL) }
        let namespaces = layout.namespaces.filter(CSharpGenerator.isNamespace)
        lines += namespaces.map { "Imports \($0)" }
        if options.flag("AddGeneratedCodeAttributes") { lines.append("Imports System.CodeDom.Compiler") }
        let defaults = Set(options.list("DefaultNamespaces"))
        if options.flag("AddDataContractAttributes"), let xmlNamespace = options.text("AddDefaultXmlNamespace") {
            lines.append("")
            let contract = DotNetAnnotations.quoted(xmlNamespace)
            for namespace in namespaces where !defaults.contains(namespace) {
                lines.append("<Assembly: ContractNamespace(\(contract), ClrNamespace:=\"\(namespace)\")>")
            }
        }
        lines += ["", "Namespace Global"]

        let writer = VbNetTypeWriter(
            options: CSharpTypeWriter.Options(options, version: Self.serviceStackVersion),
            types: CSharpTypeMap(options: options, types: layout.entries.map(\.type)),
            annotations: DotNetAnnotations(syntax: .visualBasic, options: options, mergesNamespaces: true),
            interfaces: interfaces)
        var current: String?
        for entry in layout.entries {
            let own = entry.type.namespace ?? ""
            let namespace = globalNamespace ?? (CSharpGenerator.isNamespace(own) ? own : ScriptText.identifier(own))
            if namespace != current {
                if current != nil { lines.append("    End Namespace") }
                current = namespace
                lines += ["", "    Namespace \(namespace)"]
            }
            lines.append("")
            lines += writer.write(entry).map { $0.isEmpty ? $0 : "        " + $0 }
        }
        if current != nil { lines.append("    End Namespace") }
        lines += ["End Namespace", ""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `' Options:`, the opening's lines behind `'` (its blank line a lone `'`), then the options.
    private func header(_ options: NativeTypesOptions, date: DateTimeValue, baseURL: String) -> [String] {
        let opening = DTOHeaderOpening.lines(
            "' Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"], commentPrefix: "''",
            options: options, baseURL: baseURL, oneLine: Self.oneLine)
        return [opening[0]] + opening.dropFirst().map { "'" + $0 }
            + DotNetHeader.optionLines(
                Self.headerOptions, options: options, commentPrefix: "'''", givenPrefix: "'", typesSeparator: ", ",
                oneLine: Self.oneLine) + [""]
    }

    /// A header value that stays on its comment's line: line breaks become spaces.
    static func oneLine(_ value: String) -> String { String(value.map { $0.isNewline ? " " : $0 }) }
}
