import MockStackCore

/// What ServiceStack's Java and Kotlin generators declare, and the imports that needs
/// (docs/servicestack.md#generated-dtos): the requests, their responses and the other types in
/// that order, leaving the client library's own types to it.
enum JVMDeclarations {
    /// The imports every file has, before those its types need.
    static let defaultImports = ["java.math.*", "java.util.*", "java.io.InputStream", "net.servicestack.client.*"]

    /// The yes/no options of the Java and Kotlin headers.
    static let headerFlags: Set<String> = [
        "AddPropertyAccessors", "SettersReturnThis", "AddServiceStackTypes", "AddResponseStatus",
        "AddDescriptionAsComments", "InitializeCollections",
    ]

    /// The client library's own types, which a file never declares.
    static let libraryTypes: Set<String> = ["ResponseStatus", "ResponseError", "ErrorResponse"]

    /// The selected declarations, in file order.
    static func entries(
        metadata: MetadataTypes, selection: MetadataDocument.Selection, options: NativeTypesOptions
    ) -> [DTOLayout.Entry] {
        let addsServiceStackTypes = options.flag("AddServiceStackTypes")
        func isServiceStacks(_ type: MetadataType) -> Bool {
            SwiftGenerator.serviceStackNamespaces.contains(type.namespace ?? "")
        }
        return DTOLayout.operationsFirst(
            metadata: metadata, selection: selection,
            allowed: { type in type.name != "Service" && (addsServiceStackTypes || !isServiceStacks(type)) },
            allowsResponse: { addsServiceStackTypes || !isServiceStacks($0) }
        ).filter { entry in
            if case .type = entry.role { return !libraryTypes.contains(entry.type.name) }
            return true
        }
    }

    /// The default imports, and Gson's when a member the file declares is renamed for it (a
    /// reserved word, a data member's name) or one of its requests returns a generic type (its
    /// `TypeToken`), and `java.io.*` when a type is a stream.
    static func neededImports(for entries: [DTOLayout.Entry], keywords: Set<String>) -> [String] {
        var imports = defaultImports
        let usesGson = entries.contains { entry in
            if case .request(let operation) = entry.role, operation.returnType?.name.containsMark("`") ?? false {
                return true
            }
            return entry.type.properties.contains { property in
                keywords.contains(NameCase.camel(property.name))
                    || property.json["dataMember"]?["name"]?.stringValue != nil
            }
        }
        if usesGson { imports += ["com.google.gson.annotations.*", "com.google.gson.reflect.*"] }
        if entries.contains(where: { $0.type.name == "Stream" && $0.type.namespace == "System.IO" }) {
            imports.append("java.io.*")
        }
        return imports
    }

    /// The interfaces a type may name: those the metadata declares and ServiceStack's markers
    /// (never the return markers, which the request's response decides, nor server-side ones
    /// such as `IRequiresRequestStream`).
    static func interfaces(of metadata: MetadataTypes) -> Set<String> {
        Set(metadata.types.filter(\.isInterface).map(\.name) + DTOLayout.markerInterfaces.map(\.name))
    }

    /// The name a member is written with: camelCase, capitalised where it is a reserved word (`Int`).
    static func fieldName(_ name: String, keywords: Set<String>) -> String {
        let field = NameCase.camel(ScriptText.identifier(name))
        guard keywords.contains(field), let first = field.first else { return field }
        return first.uppercased() + field.dropFirst()
    }
}
