import MockStackCore

/// A whole `/types/java` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's Java generator lays it out: the `/* Options: … */` header (each option
/// behind `//` unless the query gave it a value), `package` when one is given, an `import` per
/// default import, then one public class named by `GlobalNamespace` that nests every type in
/// request, response, type order, each after a blank line.
public struct JavaGenerator: DTOFileGenerator {
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
        "Package", "GlobalNamespace", "AddPropertyAccessors", "SettersReturnThis", "AddServiceStackTypes",
        "AddResponseStatus", "AddDescriptionAsComments", "AddImplicitVersion", "IncludeTypes", "ExcludeTypes",
        "TreatTypesAsStrings", "DefaultImports",
    ]
    /// Every option the Java generator reads.
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
            ? JVMDeclarations.neededImports(for: entries, keywords: JavaTypeWriter.keywords)
            : options.list("DefaultImports")
        let namespace = options.text("GlobalNamespace").flatMap { $0.isEmpty ? nil : $0 } ?? "dtos"

        var lines: [String] = []
        if !options.withoutOptions {
            lines += header(options, imports: imports, namespace: namespace, date: date, baseURL: baseURL)
        }
        // Only names: a query must not write code.
        if let package = options.text("Package"), JavaText.isImportable(package), !package.hasSuffix(".*") {
            lines += ["package \(package);", ""]
        }
        lines += imports.filter(JavaText.isImportable).map { "import \($0);" } + [""]
        lines += ["public class \(ScriptText.identifier(namespace))", "{"]
        let writer = JavaTypeWriter(
            options: options, interfaces: interfaces,
            conflicts: DTOLayout.conflictingNames(among: entries.map(\.type.name)))
        for entry in entries { lines += [""] + writer.write(entry) }
        lines += ["", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(
        _ options: NativeTypesOptions, imports: [String], namespace: String, date: DateTimeValue, baseURL: String
    ) -> [String] {
        var lines = DTOHeaderOpening.lines(
            "/* Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"],
            commentPrefix: "//", options: options, baseURL: baseURL, oneLine: JavaText.comment)
        lines += DTOHeaderOpening.optionLines(
            Self.headerOptions, flags: JVMDeclarations.headerFlags, imports: imports,
            shown: ["GlobalNamespace": namespace], commentPrefix: "//",
            options: options, oneLine: JavaText.comment)
        return lines + ["*/", ""]
    }
}
