import MockStackCore

/// A whole `/types/kotlin` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's Kotlin generator lays it out: the `/* Options: … */` header (each option
/// behind `//` unless the query gave it a value), `package` when one is given, an `import` per
/// default import, then every type at the top level in request, response, type order, each after
/// a blank line.
public struct KotlinGenerator: DTOFileGenerator {
    let document: MetadataDocument
    public static let serviceStackVersion = "8.41"
    /// The interfaces a type may name (``JVMDeclarations/interfaces(of:)``).
    private let interfaces: Set<String>

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
        interfaces = JVMDeclarations.interfaces(of: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "Package", "AddServiceStackTypes", "AddResponseStatus", "AddImplicitVersion", "AddDescriptionAsComments",
        "IncludeTypes", "ExcludeTypes", "InitializeCollections", "TreatTypesAsStrings", "DefaultImports",
    ]
    /// Every option the Kotlin generator reads.
    public static let options =
        headerOptions + [
            "BaseUrl", "WithoutOptions", "AddReturnMarker", "AddDataContractAttributes", "AddIndexesToDataMembers",
        ]

    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.asConfigured(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let entries = JVMDeclarations.entries(metadata: metadata, selection: selection, options: options)
        let imports =
            options.list("DefaultImports").isEmpty
            ? JVMDeclarations.neededImports(for: entries, keywords: KotlinTypeWriter.keywords)
            : options.list("DefaultImports")

        var lines: [String] = []
        if !options.withoutOptions { lines += header(options, imports: imports, date: date, baseURL: baseURL) }
        // Only names: a query must not write code.
        if let package = options.text("Package"), JavaText.isImportable(package), !package.hasSuffix(".*") {
            lines += ["package \(package)", ""]
        }
        lines += imports.filter(JavaText.isImportable).map { "import \($0)" } + [""]
        let writer = KotlinTypeWriter(
            options: options, metadata: metadata, interfaces: interfaces,
            conflicts: DTOLayout.conflictingNames(among: entries.map(\.type.name)))
        for entry in entries { lines += [""] + writer.write(entry) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(
        _ options: NativeTypesOptions, imports: [String], date: DateTimeValue, baseURL: String
    ) -> [String] {
        var lines = DTOHeaderOpening.lines(
            "/* Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"],
            commentPrefix: "//", options: options, baseURL: baseURL, oneLine: JavaText.comment)
        lines += DTOHeaderOpening.optionLines(
            Self.headerOptions, flags: JVMDeclarations.headerFlags, imports: imports, commentPrefix: "//",
            options: options, oneLine: JavaText.comment)
        return lines + ["*/", ""]
    }
}
