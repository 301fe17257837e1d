import MockStackCore

/// A ServiceStack app's routes, declared once (docs/servicestack.md#routing): the native-types
/// services every host has, then each operation's predefined and `[Route]` routes. The routes
/// listing, `operation(for:)` and dispatch are all read from this one value, so they cannot
/// disagree on where a request goes.
struct ServiceStackRoutes: Sendable {
    /// The native-types services, by the names and paths ServiceStack's `NativeTypesService`
    /// declares them; answered to any verb, as its `Any` services are.
    static let nativeTypes: [NativeTypesRoute] = [
        NativeTypesRoute(name: "TypeLinks", path: "/types", service: .typeLinks),
        NativeTypesRoute(name: "TypesMetadata", path: "/types/metadata", service: .metadata),
        NativeTypesRoute(name: "TypesSwift", path: "/types/swift", service: .dtos(.swift)),
        NativeTypesRoute(name: "TypesSwift4", path: "/types/swift4", service: .dtos(.swift)),
        NativeTypesRoute(name: "TypesPython", path: "/types/python", service: .dtos(.python)),
        NativeTypesRoute(name: "TypesTypeScript", path: "/types/typescript", service: .dtos(.typeScript)),
        NativeTypesRoute(
            name: "TypesTypeScriptDefinition", path: "/types/typescript.d", service: .dtos(.typeScriptDeclarations)),
        NativeTypesRoute(name: "TypesMjs", path: "/types/mjs", service: .dtos(.mjs)),
        NativeTypesRoute(name: "TypesCommonJs", path: "/types/js", service: .dtos(.commonJS)),
        NativeTypesRoute(name: "TypesJava", path: "/types/java", service: .dtos(.java)),
        NativeTypesRoute(name: "TypesKotlin", path: "/types/kotlin", service: .dtos(.kotlin)),
        NativeTypesRoute(name: "TypesDart", path: "/types/dart", service: .dtos(.dart)),
        NativeTypesRoute(name: "TypesCSharp", path: "/types/csharp", service: .dtos(.cSharp)),
        NativeTypesRoute(name: "TypesFSharp", path: "/types/fsharp", service: .dtos(.fSharp)),
        NativeTypesRoute(name: "TypesVbNet", path: "/types/vbnet", service: .dtos(.vbNet)),
        NativeTypesRoute(name: "TypesPhp", path: "/types/php", service: .dtos(.php)),
    ]

    /// The app's operations in metadata order: the router's matches index into it.
    private let operations: [MetadataOperation]
    private let router: OperationRouter
    /// Whether the host has `ServerEventsFeature`: its `/event-*` paths and services.
    private let serverEvents: Bool

    init(operations: [MetadataOperation], serverEvents: Bool = false) {
        self.operations = operations
        self.serverEvents = serverEvents
        router = OperationRouter(operations: operations.map { (name: $0.name, routes: $0.routes) })
    }

    /// Where a request for `path` (relative to the mount) goes when its verb is `verb`
    /// (``RequestVerb``'s, the method override applied).
    func destination(path: String, verb: String) -> ServiceStackDestination {
        // Most paths are told apart on their second byte (`/api/…`), without comparing a row.
        if let second = path.utf8.dropFirst().first {
            if second | 0x20 == UInt8(ascii: "t"), let route = Self.nativeTypesRoute(for: path) {
                return .nativeTypes(route)
            }
            if serverEvents, second | 0x20 == UInt8(ascii: "e"), let route = ServerEventsRoute.route(for: path) {
                return .serverEvents(route)
            }
        }
        let outcome = router.route(path: path, verb: verb)
        // The feature's services are not in the app's metadata, but answer on the predefined routes too.
        if serverEvents, case .unknownOperation(let name) = outcome, let route = ServerEventsRoute.service(named: name)
        {
            return .serverEvents(route)
        }
        return .routed(outcome)
    }

    /// The native-types service at `path`, in any ASCII case.
    private static func nativeTypesRoute(for path: String) -> NativeTypesRoute? {
        guard path.hasPrefixIgnoringASCIICase("/types") else { return nil }
        for route in nativeTypes where path.equalsIgnoringASCIICase(route.path) { return route }
        return nil
    }

    /// For `mockstack routes` and `/__mockstack/apps`: each operation's `/api/{Op}` route and its
    /// `[Route]`s (a route naming no verbs takes the operation's), then the native-types services.
    var listing: [RouteDescription] {
        operations.flatMap { operation -> [RouteDescription] in
            let verbs = operation.actions.contains("ANY") ? ["ANY"] : operation.actions
            let predefined = RouteDescription(name: operation.name, methods: verbs, path: "/api/\(operation.name)")
            return [predefined]
                + operation.routes.map { route in
                    let methods = route.verbs.isEmpty ? verbs : route.verbs
                    return RouteDescription(name: operation.name, methods: methods, path: route.path)
                }
        } + Self.nativeTypes.map { RouteDescription(name: $0.name, methods: ["ANY"], path: $0.path) }
            + (serverEvents
                ? ServerEventsRoute.listing.map { RouteDescription(name: $0.name, methods: $0.methods, path: $0.path) }
                : [])
    }
}

/// One native-types service: its operation name, its path, and what it serves.
struct NativeTypesRoute: Sendable, Equatable {
    enum Service: Sendable, Equatable {
        /// `/types`: each language's link.
        case typeLinks
        /// `/types/metadata`: the metadata document.
        case metadata
        /// A generated DTO file.
        case dtos(DTOLanguage)
    }

    let name: String
    let path: String
    let service: Service
}

/// What answers a request to a ServiceStack app (``ServiceStackRoutes/destination(path:verb:)``).
enum ServiceStackDestination: Sendable, Equatable {
    case nativeTypes(NativeTypesRoute)
    /// A path or service of `ServerEventsFeature`.
    case serverEvents(ServerEventsRoute)
    /// An operation, a predefined route naming no operation, or no route at all.
    case routed(OperationRouter.Outcome)

    /// The name the journal and a stub's `operation` criterion know the answer by; nil when no
    /// operation answers.
    var operation: String? {
        switch self {
        case .nativeTypes(let route): route.name
        case .serverEvents(let route): route.name
        case .routed(.operation(let match)): match.operation
        case .routed: nil
        }
    }
}
