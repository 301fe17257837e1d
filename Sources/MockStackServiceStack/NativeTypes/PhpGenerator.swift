import MockStackCore

/// A whole `/types/php` file from an app's metadata (docs/servicestack.md#generated-dtos), laid out
/// as ServiceStack's PHP generator lays it out: `<?php namespace dtos;` (the `GlobalNamespace`),
/// the `/* Options: … */` header (each option behind `//` unless the query gave it a value), two
/// blank lines, a `use` line per class of PHP and of the `servicestack/client` package the file
/// names, then one per `DefaultImports` entry, and every type in ``DTOLayout`` order, each after a
/// blank line; a blank line ends the file. The types the package defines (`ResponseStatus`,
/// `QueryDb`, `AuditBase`, …) are left to it, as ServiceStack always includes its own types
/// (`AddServiceStackTypes`) in a PHP file.
public struct PhpGenerator: DTOFileGenerator {
    let document: MetadataDocument
    public static let serviceStackVersion = "8.41"

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "GlobalNamespace", "MakePropertiesOptional", "AddServiceStackTypes", "AddResponseStatus", "AddImplicitVersion",
        "AddDescriptionAsComments", "IncludeTypes", "ExcludeTypes", "DefaultImports",
    ]
    /// Every option the PHP generator reads.
    public static let options = headerOptions + ["BaseUrl", "WithoutOptions", "AddReturnMarker"]

    /// The namespace a file declares when nothing names one.
    static let defaultNamespace = "dtos"

    /// The `use` lines every file has: PHP's classes, then the package's interfaces, base
    /// classes, types and helpers.
    static let libraryImports = [
        "DateTime", "Exception", "DateInterval", "JsonSerializable",
        "ServiceStack\\{IReturn,IReturnVoid,IGet,IPost,IPut,IDelete,IPatch,IMeta,IHasSessionId,IHasBearerToken,"
            + "IHasVersion}",
        "ServiceStack\\{ICrud,ICreateDb,IUpdateDb,IPatchDb,IDeleteDb,ISaveDb,AuditBase,QueryDb,QueryDb2,QueryData,"
            + "QueryData2,QueryResponse}",
        "ServiceStack\\{ResponseStatus,ResponseError,EmptyResponse,IdResponse,ArrayList,KeyValuePair2,StringResponse,"
            + "StringsResponse,Tuple2,Tuple3,ByteArray}",
        "ServiceStack\\{JsonConverters,Returns,TypeContext}",
    ]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forScripts(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let layout = DTOLayout(metadata: metadata, selection: selection, leavingOut: DTOLayout.clientLibraryTypes)
        let namespace = options.text("GlobalNamespace").map(ScriptText.identifier) ?? Self.defaultNamespace
        var lines = [namespace.isEmpty ? "<?php" : "<?php namespace \(namespace);"]
        if !options.withoutOptions {
            lines += header(options, namespace: namespace, date: date, baseURL: baseURL)
        }
        lines.append("")
        lines += (Self.libraryImports.map { "use \($0);" } + options.list("DefaultImports").compactMap(PhpText.useLine))
        lines.append("")
        let writer = PhpTypeWriter(
            options: options, layout: layout,
            libraryTypes: metadata.types.filter { DTOLayout.clientLibraryTypes.contains($0.name) })
        for entry in layout.entries {
            lines.append("")
            lines += writer.write(entry)
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    private func header(
        _ options: NativeTypesOptions, namespace: String, date: DateTimeValue, baseURL: String
    ) -> [String] {
        var lines = DTOHeaderOpening.lines(
            "/* Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"],
            commentPrefix: "//", options: options, baseURL: baseURL, oneLine: Self.headerText)
        for name in Self.headerOptions {
            let value: String
            switch name {
            case "GlobalNamespace": value = namespace
            // Every PHP file has ServiceStack's types, whatever the query says.
            case "AddServiceStackTypes": value = "True"
            case "MakePropertiesOptional", "AddResponseStatus", "AddDescriptionAsComments":
                value = options.flag(name) ? "True" : "False"
            case "IncludeTypes", "ExcludeTypes", "DefaultImports": value = options.list(name).joined(separator: ",")
            case "AddImplicitVersion": value = options.text(name).flatMap { Int($0) }.map(String.init) ?? ""
            default: value = ""
            }
            lines.append((options.hasValue(name) ? "" : "//") + name + ": " + Self.headerText(value))
        }
        return lines + ["*/", ""]
    }

    /// A header value that stays on its line and inside the comment.
    static func headerText(_ value: String) -> String { SwiftHeader.oneLine(value) }
}
