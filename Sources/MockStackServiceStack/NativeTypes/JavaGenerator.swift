import MockStackCore

/// A whole `/types/java` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's Java generator lays it out: the `/* Options: … */` header (each option
/// behind `//` unless the query gave it a value), `package` when one is given, an `import` per
/// default import, then one public class named by `GlobalNamespace` that nests every type in
/// request, response, type order, each after a blank line.
public struct JavaGenerator: DTOFileGenerator {
    public let metadata: MetadataTypes
    /// `Version:`, the ServiceStack release whose generator the file reproduces.
    public let serviceStackVersion: String
    private let document: MetadataDocument
    /// The interfaces a type may name (see ``JavaTypeWriter/interfaces``).
    private let interfaces: Set<String>

    public init(metadata: MetadataTypes, serviceStackVersion: String = "8.41") {
        self.metadata = metadata
        self.serviceStackVersion = serviceStackVersion
        document = MetadataDocument(metadata: metadata)
        interfaces = Set(metadata.types.filter(\.isInterface).map(\.name) + DTOLayout.markerInterfaces.map(\.name))
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

    /// The imports every file has, before those its types need.
    static let defaultImports = ["java.math.*", "java.util.*", "java.io.InputStream", "net.servicestack.client.*"]

    /// The client library's own types, which the file never declares.
    static let libraryTypes: Set<String> = ["ResponseStatus", "ResponseError", "ErrorResponse"]

    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.asConfigured(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let addsServiceStackTypes = options.flag("AddServiceStackTypes")
        func isServiceStacks(_ type: MetadataType) -> Bool {
            SwiftGenerator.serviceStackNamespaces.contains(type.namespace ?? "")
        }
        let entries = DTOLayout.operationsFirst(
            metadata: metadata, selection: selection,
            allowed: { type in
                type.name != "Service" && (addsServiceStackTypes || !isServiceStacks(type))
            },
            allowsResponse: { addsServiceStackTypes || !isServiceStacks($0) }
        ).filter { entry in
            if case .type = entry.role { return !Self.libraryTypes.contains(entry.type.name) }
            return true
        }
        let imports =
            options.list("DefaultImports").isEmpty ? Self.neededImports(for: entries) : options.list("DefaultImports")
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

    /// The default imports, and Gson's when a member the file declares is renamed for it or one
    /// of its requests returns a generic type (its `TypeToken`), and `java.io.*` when a type is a
    /// stream.
    private static func neededImports(for entries: [DTOLayout.Entry]) -> [String] {
        var imports = defaultImports
        let usesGson = entries.contains { entry in
            if case .request(let operation) = entry.role, operation.returnType?.name.contains("`") ?? false {
                return true
            }
            return entry.type.properties.contains { property in
                JavaTypeWriter.keywords.contains(NameCase.camel(property.name))
                    || property.json["dataMember"]?["name"]?.stringValue != nil
            }
        }
        if usesGson { imports += ["com.google.gson.annotations.*", "com.google.gson.reflect.*"] }
        if entries.contains(where: { $0.type.name == "Stream" && $0.type.namespace == "System.IO" }) {
            imports.append("java.io.*")
        }
        return imports
    }

    private func header(
        _ options: NativeTypesOptions, imports: [String], namespace: String, date: DateTimeValue, baseURL: String
    ) -> [String] {
        var lines = DTOHeaderOpening.lines(
            "/* Options:", date: date, versions: ["Version: \(serviceStackVersion)"],
            commentPrefix: "//", options: options, baseURL: baseURL, oneLine: JavaText.comment)
        for name in Self.headerOptions {
            let value: String
            switch name {
            case "Package": value = options.text(name) ?? ""
            case "GlobalNamespace": value = namespace
            case "AddImplicitVersion": value = options.text(name).flatMap { Int($0) }.map(String.init) ?? ""
            case "IncludeTypes", "ExcludeTypes", "TreatTypesAsStrings":
                value = options.list(name).joined(separator: ",")
            case "DefaultImports": value = imports.joined(separator: ",")
            default: value = options.flag(name) ? "True" : "False"
            }
            lines.append((options.hasValue(name) ? "" : "//") + name + ": " + JavaText.comment(value))
        }
        return lines + ["*/", ""]
    }
}
