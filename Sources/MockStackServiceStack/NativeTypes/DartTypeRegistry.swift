import MockStackCore

/// The `TypeContext _ctx = TypeContext(library: '…', types: <String, TypeInfo> { … });` that ends
/// a `/types/dart` file (docs/servicestack.md#generated-dtos): how the Dart client builds each
/// type it meets in JSON, one `'Name': TypeInfo(…),` line per type, in the order the writer
/// first meets them (each declared type, the generic return types and member types it uses).
/// The types the `servicestack` package registers itself are never listed.
struct DartTypeRegistry {
    private let types: DartTypeMap
    /// The file's declared types by .NET name (``QueryResponse`1``).
    private let declared: [String: MetadataType]
    private var registered: Set<String> = Self.libraryTypes
    private(set) var lines: [String] = []

    /// What the `servicestack` package's `TypeContext` already knows.
    static let libraryTypes: Set<String> = [
        "dynamic", "String", "int", "bool", "double", "Map<String,String>", "List<String>", "List<int>",
        "List<double>", "DateTime", "Duration", "Tuple<T1,T2>", "Tuple2<T1,T2>", "Tuple3<T1,T2,T3>",
        "Tuple4<T1,T2,T3,T4>", "KeyValuePair<K,V>", "KeyValuePair<String,String>", "ResponseStatus", "ResponseError",
        "List<ResponseError>", "QueryBase", "QueryData<T>", "QueryDb<T>", "QueryDb1<T>", "QueryDb2<From,Into>",
        "QueryResponse<T>", "List<UserApiKey>", "Authenticate", "AuthenticateResponse", "Register",
        "RegisterResponse", "AssignRoles", "AssignRolesResponse", "UnAssignRoles", "UnAssignRolesResponse",
        "CancelRequest", "CancelRequestResponse", "UpdateEventSubscriber", "UpdateEventSubscriberResponse",
        "GetEventSubscribers", "GetApiKeys", "GetApiKeysResponse", "RegenerateApiKeys", "RegenerateApiKeysResponse",
        "UserApiKey", "ConvertSessionToToken", "ConvertSessionToTokenResponse", "GetAccessToken",
        "GetAccessTokenResponse", "List<NavItem>", "Map<String,List<NavItem>>", "NavItem", "GetNavItems",
        "GetNavItemsResponse", "EmptyResponse", "IdResponse", "StringResponse", "StringsResponse", "AuditBase",
    ]

    init(types: DartTypeMap, declared: [MetadataType]) {
        self.types = types
        var byName: [String: MetadataType] = [:]
        for type in declared { byName[type.name] = type }
        self.declared = byName
    }

    /// A member's type, by its Dart name; its .NET name picks a factory and the declared type.
    mutating func registerMember(_ dartType: String, rawType: String) {
        guard !registered.contains(dartType) else { return }
        register(dartType, as: declared[rawType], factory: DartTypeMap.defaultValues[rawType].map { "() => \($0)" })
    }

    /// A type by its Dart name (`QueryResponse<Poco>`), as the declared `type` when there is one:
    /// its kind decides the line. A type nothing declares is a class, and its generic arguments
    /// are registered after it.
    mutating func register(_ dartType: String, as type: MetadataType? = nil, factory: String? = nil) {
        let name = dartType.hasSuffix("?") ? String(dartType.dropLast()) : dartType
        guard registered.insert(name).inserted else { return }
        var factory = factory ?? "() => \(name)()"
        if factory.hasPrefix("() => List<") { factory = "() => " + DartTypeMap.literal(String(factory.dropFirst(6))) }
        guard let type else {
            lines.append("    '\(name)': TypeInfo(TypeOf.Class, create:\(factory)),")
            guard name.containsMark("<") else { return }
            for argument in DartTypeNode(parsing: name[...]).children
            where !DartTypeMap.basicJSONTypes.contains(argument.text) {
                let raw = types.raw(argument)
                register(raw, factory: DartTypeMap.defaultValues[raw].map { "() => \($0)" })
            }
            return
        }
        let isAbstract = type.json["isAbstract"]?.boolValue == true
        let isClass = !isAbstract && !type.isInterface && !type.isEnum
        if isClass && type.genericArgs.contains(where: { $0.hasPrefix("'") }) {
            let base = name.prefix { $0 != "<" }
            lines.append("    '\(name)': TypeInfo(TypeOf.GenericDef,create:() => \(base)()),")
        } else if type.isInterface {
            lines.append("    '\(name)': TypeInfo(TypeOf.Interface),")
        } else if isAbstract {
            lines.append("    '\(name)': TypeInfo(TypeOf.AbstractClass),")
        } else if type.isEnum {
            lines.append("    '\(name)': TypeInfo(TypeOf.Enum, enumValues:\(name).values),")
        } else {
            lines.append("    '\(name)': TypeInfo(TypeOf.Class, create:\(factory)),")
        }
        // An AutoQuery request's results are a list the package does not know: registered with it.
        if let base = type.inherits, ["QueryDb`", "QueryData`"].contains(where: { base.name.hasPrefix($0) }),
            !isAbstract,
            let element = base.genericArgs.last
        {
            let list = "List<\(types.rawArgument(element))>"
            register(list, as: Self.listType(list))
        }
    }

    /// The entry's closing lines: the context named `library`, or nothing when no type was written.
    func context(library: String) -> [String] {
        ["", "TypeContext _ctx = TypeContext(library: '\(library)', types: <String, TypeInfo> {"] + lines + ["});"]
    }

    /// `List<T>` as a declared class, so that it is registered as one with a `<T>[]` factory.
    private static func listType(_ name: String) -> MetadataType {
        let json: JSONObject = ["name": .string(name)]
        // Built from a literal the reader always accepts.
        return try! MetadataType(reader: JSONReader(root: .object(json)))
    }
}
