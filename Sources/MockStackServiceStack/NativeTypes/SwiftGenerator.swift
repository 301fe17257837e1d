/// A whole `/types/swift` file from an app's metadata (docs/servicestack.md#generated-dtos), laid out as ServiceStack's
/// Swift generator lays it out: the options header and a blank line, one `import` per
/// `DefaultImports` entry, then the request DTOs in operation order, their responses, and the
/// other types in metadata order, each after a blank line (an `ExcludeGenericBaseTypes` note
/// takes a type's place without one); `AddModelExtensions` ends the file with two more line breaks.
public struct SwiftGenerator: DTOFileGenerator {
    let document: MetadataDocument
    public let header: SwiftHeader
    public static let serviceStackVersion = "8.41"

    /// The header's options, in its order.
    public static let headerOptions = [
        "BaseClass", "AddModelExtensions", "AddServiceStackTypes", "MakePropertiesOptional", "IncludeTypes",
        "ExcludeTypes", "ExcludeGenericBaseTypes", "AddResponseStatus", "AddImplicitVersion",
        "AddDescriptionAsComments", "InitializeCollections", "TreatTypesAsStrings", "DefaultImports",
    ]

    /// Every option the Swift generator reads: the header's, `BaseUrl` and `WithoutOptions`.
    public static let options = headerOptions + ["BaseUrl", "WithoutOptions"]

    /// Types the Swift generator leaves to the ServiceStack Swift package (by name without arity).
    static let ignoredTypes: Set<String> = [
        "QueryBase", "QueryDb", "QueryData", "QueryResponse", "AuditBase", "EmptyResponse", "ResponseStatus",
        "ResponseError", "ErrorResponse", "Service",
    ]

    /// The namespaces whose types `AddServiceStackTypes=False` leaves out (ServiceStack's own
    /// services and DTOs, `Authenticate` among them).
    static let serviceStackNamespaces: Set<String> = [
        "ServiceStack", "ServiceStack.Auth", "ServiceStack.Caching", "ServiceStack.Configuration", "ServiceStack.Data",
        "ServiceStack.IO", "ServiceStack.Logging", "ServiceStack.Messaging", "ServiceStack.Model", "ServiceStack.Redis",
        "ServiceStack.Web", "ServiceStack.Jobs", "ServiceStack.Admin", "ServiceStack.NativeTypes",
        "ServiceStack.Api.OpenApi",
    ]

    /// Worked out once per app rather than per request: the interfaces the file defines, and
    /// the names declared with several arities.
    private let interfaces: Set<String>
    private let conflicts: Set<String>

    public init(metadata: MetadataTypes, header: SwiftHeader = SwiftHeader()) {
        self.header = header
        document = MetadataDocument(metadata: metadata)
        interfaces = Set(metadata.types.filter(\.isInterface).map { MetadataDocument.key($0.name) })
        conflicts = SwiftTypeMap.conflicts(
            among: metadata.types + metadata.operations.map(\.request) + metadata.operations.compactMap(\.response))
    }

    /// The file for a request's query options.
    /// - Parameters:
    ///   - date: the `Date:` of the header;
    ///   - baseURL: where the file is served from (the header's `BaseUrl:` unless the query sets it).
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let writer = SwiftTypeWriter(options: options, interfaces: interfaces, conflicts: conflicts)
        var out = ""
        if !options.withoutOptions {
            out += header.render(options, date: date, baseURL: baseURL) + "\n"
        }
        // Only module names: an import line is code, and a query must not write code.
        for module in options.list("DefaultImports") where SwiftTypeWriter.isQualifiedName(module) {
            out += "import \(module)\n"
        }

        let addsServiceStackTypes = options.flag("AddServiceStackTypes")
        let entries = DTOLayout.operationsFirst(metadata: metadata, selection: selection) { type in
            !Self.ignoredTypes.contains(MetadataDocument.key(type.name))
                && (addsServiceStackTypes || !Self.serviceStackNamespaces.contains(type.namespace ?? ""))
        }
        let excludesGenericBases = options.flag("ExcludeGenericBaseTypes")
        for entry in entries {
            let type = entry.type
            if excludesGenericBases, let base = type.inherits, !base.genericArgs.isEmpty {
                out +=
                    """
                    //Excluded \(type.name) : \
                    \(MetadataDocument.key(base.name))<\(base.genericArgs.joined(separator: ","))>\n
                    """
                continue
            }
            switch entry.role {
            case .request(let operation): out += "\n" + writer.writeClass(type, operation: operation)
            case .response: out += "\n" + writer.writeClass(type, isResponse: true)
            case .type where type.isEnum: out += "\n" + writer.writeEnum(type)
            case .type where type.isInterface: out += "\n" + writer.writeProtocol(type)
            case .type: out += "\n" + writer.writeClass(type)
            }
        }
        if options.flag("AddModelExtensions") { out += "\n\n" }
        return out
    }
}
