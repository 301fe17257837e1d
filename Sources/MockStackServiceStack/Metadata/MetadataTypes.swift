public import MockStackCore

/// An app's `/types/metadata` document, read into what the emulation needs, with the original
/// JSON kept for serving the document back (filtered) in its own key order.
///
/// Shape (docs/servicestack.md#metadata): `{config, namespaces, types: [MetadataType], operations:
/// [MetadataOperation]}`.
public struct MetadataTypes: Sendable {
    public var config: JSONObject
    public var namespaces: [String]
    public var types: [MetadataType]
    public var operations: [MetadataOperation]

    /// Reads a document; every problem is reported with the JSON pointer where it was found.
    public init(json: JSONValue) throws(MetadataError) {
        let root = try JSONReader(root: json)
        config = try root.object("config", required: false) ?? [:]
        namespaces = try root.strings("namespaces")
        types = try root.array("types").map { reader throws(MetadataError) in try MetadataType(reader: reader) }
        operations = try root.array("operations").map { reader throws(MetadataError) in
            try MetadataOperation(reader: reader)
        }
    }
}

/// A type name with its namespace, as `inherits`, `implements` and `returnType` give it.
public struct MetadataTypeName: Sendable, Hashable {
    public var name: String
    public var namespace: String?
    public var genericArgs: [String]

    init(reader: JSONReader) throws(MetadataError) {
        name = try reader.string("name")
        namespace = try reader.optionalString("namespace")
        genericArgs = try reader.strings("genericArgs")
    }

    /// The type this names, generic arguments included (``QueryResponse`1`` of `Technology`).
    public var reference: TypeReference { TypeReference(type: name, genericArgs: genericArgs) }
}

/// One DTO, enum or interface.
///
/// Immutable, and a reference: the loader and every generated file's writer pass types around
/// and keep them in lists and tables, and a copy is then one retain, not one per field.
public final class MetadataType: Sendable {
    public let name: String
    public let namespace: String?
    public let genericArgs: [String]
    public let inherits: MetadataTypeName?
    public let implements: [MetadataTypeName]
    public let isEnum: Bool
    public let isEnumInt: Bool
    public let isInterface: Bool
    public let enumNames: [String]
    public let enumValues: [String]
    /// An enum's `[Description]`s, member by member (empty when none declares one).
    public let enumDescriptions: [String]
    public let properties: [MetadataProperty]
    /// The type as the document gave it, for `/types/metadata`.
    public let json: JSONObject

    init(reader: JSONReader) throws(MetadataError) {
        name = try reader.string("name")
        namespace = try reader.optionalString("namespace")
        genericArgs = try reader.strings("genericArgs")
        inherits = try reader.child("inherits").map { reader throws(MetadataError) in
            try MetadataTypeName(reader: reader)
        }
        implements = try reader.array("implements").map { reader throws(MetadataError) in
            try MetadataTypeName(reader: reader)
        }
        isEnum = try reader.flag("isEnum")
        isEnumInt = try reader.flag("isEnumInt")
        isInterface = try reader.flag("isInterface")
        enumNames = try reader.strings("enumNames")
        enumValues = try reader.strings("enumValues")
        enumDescriptions = try reader.strings("enumDescriptions")
        properties = try reader.array("properties").map { reader throws(MetadataError) in
            try MetadataProperty(reader: reader)
        }
        json = reader.object
    }

    /// The return type a request names in its `IReturn<T>` among `implements`, which the
    /// script generators read for an operation whose metadata gives no `returnType`.
    var returnMarkerReference: TypeReference? {
        guard let marker = implements.first(where: { $0.name == "IReturn`1" }), let argument = marker.genericArgs.first
        else { return nil }
        return TypeReference(parsing: argument)
    }

    /// Whether the type implements the named interface (`IGet`, `IReturnVoid`, …).
    public func implements(_ interface: String) -> Bool {
        implements.contains { $0.name.leftPart("`") == interface }
    }
}

/// One property of a DTO, in declaration order. Immutable, and a reference, as ``MetadataType``.
public final class MetadataProperty: Sendable {
    /// The C# name (`Id`, `VendorName`).
    public let name: String
    public let type: TypeReference
    /// The type's .NET name as the metadata spells it (``List`1``, ``Nullable`1``, `Byte[]`,
    /// `'T`): the generated files' rules turn on that spelling.
    public let typeName: String
    /// The type's generic arguments as the metadata spells them (`Dictionary<String,Poco>`); nil
    /// when it lists none, which ServiceStack's generators read apart from an empty list.
    public let genericArgs: [String]?
    public let namespace: String?
    public let isValueType: Bool
    public let isEnum: Bool
    public let isRequired: Bool
    public let json: JSONObject

    init(reader: JSONReader) throws(MetadataError) {
        name = try reader.string("name")
        typeName = try reader.string("type")
        let arguments = try reader.strings("genericArgs")
        genericArgs = reader.object["genericArgs"]?.arrayValue == nil ? nil : arguments
        type = TypeReference(type: typeName, genericArgs: arguments)
        namespace = try reader.optionalString("namespace")
        isValueType = try reader.flag("isValueType")
        isEnum = try reader.flag("isEnum")
        isRequired = try reader.flag("isRequired")
        json = reader.object
    }
}

/// One operation: its request type, routes, verbs and what it returns. Immutable, and a
/// reference, as ``MetadataType``.
public final class MetadataOperation: Sendable {
    public let request: MetadataType
    public let response: MetadataType?
    /// `ANY`, `GET`, `POST`, … as declared by the service's methods.
    public let actions: [String]
    public let returnsVoid: Bool
    /// The verb the client should use, when the request type says (`IGet` → `GET`).
    public let method: String?
    public let returnType: MetadataTypeName?
    public let routes: [MetadataRoute]
    public let requiresAuth: Bool
    public let requiresApiKey: Bool
    public let requiredRoles: [String]
    public let tags: [String]
    public let json: JSONObject

    /// The operation's name: its request DTO's name.
    public var name: String { request.name }

    init(reader: JSONReader) throws(MetadataError) {
        guard let requestReader = try reader.child("request") else {
            throw MetadataError(pointer: reader.pointer + "/request", message: "an operation needs a 'request' type")
        }
        request = try MetadataType(reader: requestReader)
        response = try reader.child("response").map { reader throws(MetadataError) in try MetadataType(reader: reader) }
        let actions = try reader.strings("actions").map { $0.uppercased() }
        self.actions = actions.isEmpty ? ["ANY"] : actions
        returnsVoid = try reader.flag("returnsVoid")
        method = try reader.optionalString("method")?.uppercased()
        returnType = try reader.child("returnType").map { reader throws(MetadataError) in
            try MetadataTypeName(reader: reader)
        }
        routes = try reader.array("routes").map { reader throws(MetadataError) in try MetadataRoute(reader: reader) }
        requiresAuth = try reader.flag("requiresAuth")
        requiresApiKey = try reader.flag("requiresApiKey")
        requiredRoles = try reader.strings("requiredRoles")
        tags = try reader.strings("tags")
        json = reader.object
    }
}

/// A `[Route]`: a path template and the verbs it is limited to (none = any).
public struct MetadataRoute: Sendable {
    public var path: String
    public var verbs: [String]

    public init(path: String, verbs: [String] = []) {
        self.path = path
        self.verbs = verbs.map { $0.uppercased() }
    }

    init(reader: JSONReader) throws(MetadataError) {
        let path = try reader.string("path")
        guard path.hasPrefix("/") else {
            throw MetadataError(
                pointer: reader.pointer + "/path", message: "a route path starts with '/', got '\(path)'")
        }
        // Metadata writes verbs as one comma-separated string ("GET,POST").
        let verbs = (try reader.optionalString("verbs") ?? "").split(separator: ",").map { $0.trimmingASCIISpace() }
        self.init(path: path, verbs: verbs.filter { !$0.isEmpty }.map(String.init))
    }
}

/// A problem in a metadata document, at a JSON pointer: a document reader's error.
public typealias MetadataError = JSONReadError
