public import MockStackCore

/// Builds ``ServiceStackApp``s from manifests with `"kind": "servicestack"`:
///
/// ```json
/// {
///   "kind": "servicestack",
///   "metadata": "metadata.json",
///   "host": { "serializer": "servicestack-text", "debugMode": true },
///   "operations": { "Hello": { "behaviour": "template", "response": { "result": "Hello, {Name}!" } } }
/// }
/// ```
///
/// `metadata` is the server's `/types/metadata` document; every operation it declares is
/// served. Operations the manifest does not name echo their request (or answer 204 when void).
public struct ServiceStackAppKind: AppKind {
    public static let kindName = "servicestack"
    static let hostKeys: Set<String> = [
        "serializer", "debugMode", "serviceClass", "apiKeys", "maximumFields", "swiftVersion", "typesDate", "cors",
    ]

    /// Replaces the wall clock of every app built (tests pin dates with it).
    public var clock: (@Sendable () -> DateTimeValue)?

    /// The `Date:` of every generated DTO file (`serve --fixed-date`), for golden files.
    public var typesDate: DateTimeValue?

    public init(clock: (@Sendable () -> DateTimeValue)? = nil, typesDate: DateTimeValue? = nil) {
        self.clock = clock
        self.typesDate = typesDate
    }

    public var name: String { Self.kindName }
    public var manifestKeys: Set<String> { ["metadata", "host", "auth", "operations", "serverEvents"] }

    /// A 500 with a `ResponseStatus`, as ServiceStack answers an unhandled exception.
    public static func unavailable(_ message: String) -> HTTPResponse {
        let status: JSONValue = ["errorCode": "Exception", "message": .string(message), "errors": .array([])]
        return .json(500, bytes: JSONValue.object(["responseStatus": status]).encoded())
    }

    public func makeApp(name: String, mount: String, manifest: ManifestReader) -> (any MockApp)? {
        guard let (validated, file) = readMetadata(manifest) else { return nil }
        let metadata = validated.metadata
        let host = readHost(manifest)
        let serverEvents = ServerEventsSettings.read(manifest, at: "/serverEvents").map { settings in
            let clock = host.clock
            return ServerEventsHub(
                settings: settings, budget: SubscriptionBudget(limit: settings.maxSubscriptions),
                clock: ServerEventsClock(wallMilliseconds: { clock().millisecondsSinceEpoch }))
        }
        let context = AppContext(
            catalog: validated.catalog, host: host, auth: readAuth(manifest), serverEvents: serverEvents)
        report(validated.problems, in: file, to: manifest)
        report(unacknowledged(validated.unboundRouteVariables, by: manifest), in: file, to: manifest)
        manifest.rejectUnknownKeys(at: "/operations", allowed: Set(metadata.operations.map(\.name)))
        if let value = manifest.value(at: "/operations"), value.objectValue == nil {
            manifest.report(
                "expected an object of operation name → behaviour, found \(value.typeName)", at: "/operations")
        }
        let reader = BehaviourReader(
            manifest: manifest, dataSets: DataSetLoader(manifest: manifest, coercion: context.coercion))
        // What the manifest says of an operation is read (and refused) now; the operation is
        // resolved against its types when first called.
        var operations:
            [(metadata: MetadataOperation, cache: ResponseCache?, resolved: ResolvedOnFirstUse<ServiceOperation>)] = []
        operations.reserveCapacity(metadata.operations.count)
        for operation in metadata.operations {
            let pointer = JSONPointer.appending(operation.name, to: "/operations")
            let configured = manifest.value(at: pointer) != nil
            let behaviour =
                (configured ? reader.behaviour(at: pointer, for: operation) : nil) ?? Self.fallback(for: operation)
            let dialect = configured ? reader.dialect(at: pointer + "/serializer") ?? host.dialect : host.dialect
            let serviceClass = (configured ? manifest.string(pointer + "/service") : nil) ?? host.serviceClass
            let cache = (configured ? manifest.int(pointer + "/cacheSeconds", in: 1...31_536_000) : nil).map {
                ResponseCache(seconds: $0)
            }
            let coercion = context.coercion
            operations.append(
                (
                    operation, cache,
                    ResolvedOnFirstUse {
                        ServiceOperation(
                            metadata: operation, coercion: coercion, behaviour: behaviour, dialect: dialect,
                            serviceClass: serviceClass, cache: cache)
                    }
                ))
        }
        var apiKeys: APIKeyPolicy?
        if manifest.value(at: "/host/apiKeys") != nil {
            manifest.rejectUnknownKeys(at: "/host/apiKeys", allowed: ["keys", "acceptAny"])
            let keys = manifest.array("/host/apiKeys/keys").compactMap(\.stringValue)
            apiKeys = APIKeyPolicy(
                keys: Set(keys), acceptAny: manifest.value(at: "/host/apiKeys/acceptAny")?.boolValue ?? false)
        } else if metadata.operations.contains(where: \.requiresApiKey) {
            apiKeys = APIKeyPolicy(keys: [], acceptAny: true)
        }
        let files = VirtualFiles.load(reader.dataSets.virtualPaths, manifest: manifest)
        return ServiceStackApp(
            name: name, mount: mount, metadata: metadata, context: context, operations: operations, apiKeys: apiKeys,
            files: files)
    }

    /// The route variables `operations.{Op}.unboundRouteVariables` does not name, as problems;
    /// a name there that is no unbound variable of the operation is reported at its place.
    private func unacknowledged(
        _ unbound: [UnboundRouteVariable], by manifest: ManifestReader
    ) -> [MetadataError] {
        var acknowledged: [String: Set<String>] = [:]
        // In the manifest's order, so its mistakes are reported in the order they are written.
        for operation in manifest.value(at: "/operations")?.objectValue?.keys ?? [] {
            let pointer = JSONPointer.appending(operation, to: "/operations") + "/unboundRouteVariables"
            guard manifest.value(at: pointer) != nil else { continue }
            let variables = Set(unbound.filter { $0.operation == operation }.map { $0.variable.lowercased() })
            for (index, item) in manifest.array(pointer).enumerated() {
                guard let name = item.stringValue else {
                    manifest.report(
                        "expected a route variable's name, found \(item.typeName)", at: pointer + "/\(index)")
                    continue
                }
                guard variables.contains(name.lowercased()) else {
                    manifest.report(
                        "'\(name)' is no route variable of \(operation) that its request lacks",
                        at: pointer + "/\(index)")
                    continue
                }
                acknowledged[operation, default: []].insert(name.lowercased())
            }
        }
        return unbound.filter { acknowledged[$0.operation]?.contains($0.variable.lowercased()) != true }.map(\.problem)
    }

    /// The route variables a host's metadata document (its `/types/metadata`) publishes without
    /// a request property to bind them, by operation, in document order: what a recorded app's
    /// manifest names so that it loads. None for a document that cannot be read.
    public static func unboundRouteVariables(inMetadata bytes: [UInt8]) -> [(operation: String, variable: String)] {
        guard let root = try? JSONParser().parse(bytes).root, let metadata = try? MetadataTypes(json: root) else {
            return []
        }
        return ValidatedMetadata(metadata: metadata).unboundRouteVariables.map { ($0.operation, $0.variable) }
    }

    /// What an operation the manifest leaves out does: echo its request, or 204 when void.
    private static func fallback(for operation: MetadataOperation) -> any OperationBehaviour {
        operation.returnsVoid || operation.request.implements("IReturnVoid") ? VoidBehaviour() : EchoBehaviour()
    }

    /// The app's metadata read, resolved and checked, or once already in this process (see
    /// ``ValidatedMetadata``); nil after reporting why it cannot be read.
    private func readMetadata(_ manifest: ManifestReader) -> (ValidatedMetadata, file: (path: String, bytes: [UInt8]))?
    {
        guard let fileName = manifest.string("/metadata", required: true),
            let file = manifest.appFile(named: fileName, at: "/metadata")
        else { return nil }
        let display = manifest.displayPath(file.path)
        do {
            // Positions are recorded only to report a mistake: most loads need none.
            let validated = try ValidatedMetadata.cached(for: file.bytes) { () throws -> MetadataTypes in
                try MetadataTypes(json: JSONParser().parse(file.bytes).root)
            }
            return (validated, file)
        } catch let error as JSONSyntaxError {
            manifest.report(
                FixtureDiagnostic(
                    file: display, position: error.position, pointer: error.pointer,
                    message: "invalid JSON: \(error.message)"))
        } catch let error as MetadataError {
            report([error], in: file, to: manifest)
        } catch {
            manifest.report(FixtureDiagnostic(file: display, position: .start, pointer: "", message: "\(error)"))
        }
        return nil
    }

    /// Reports problems found in the metadata file, each at its line and column there.
    private func report(
        _ problems: [MetadataError], in file: (path: String, bytes: [UInt8]), to manifest: ManifestReader
    ) {
        guard !problems.isEmpty else { return }
        // Positions are recorded only now: a file without mistakes is parsed once, without them.
        let positions = try? JSONParser().parse(file.bytes, recordPositions: true)
        for problem in problems {
            manifest.report(
                FixtureDiagnostic(
                    file: manifest.displayPath(file.path), position: positions?.position(of: problem.pointer) ?? .start,
                    pointer: problem.pointer, message: problem.message))
        }
    }

    /// `"auth": {"secret": "…", "accessTokenLifetime": 1209600, "refreshTokenLifetime": …,
    ///  "users": [{"id": "1", "userName": "test", "password": "test", "displayName": …, "email": …,
    ///  "firstName": …, "lastName": …, "roles": […], "permissions": […]}]}`
    private func readAuth(_ manifest: ManifestReader) -> AuthService? {
        guard manifest.value(at: "/auth") != nil else { return nil }
        manifest.rejectUnknownKeys(
            at: "/auth", allowed: ["secret", "accessTokenLifetime", "refreshTokenLifetime", "users"])
        let userKeys: Set<String> = [
            "id", "userName", "password", "displayName", "email", "firstName", "lastName", "roles", "permissions",
        ]
        var users: [AuthService.User] = []
        for index in manifest.array("/auth/users").indices {
            let at = "/auth/users/\(index)"
            manifest.rejectUnknownKeys(at: at, allowed: userKeys)
            guard let id = manifest.string(at + "/id", required: true),
                let userName = manifest.string(at + "/userName", required: true),
                let password = manifest.string(at + "/password", required: true)
            else { continue }
            let profile = UserProfile(
                userAuthId: id, userName: userName, displayName: manifest.string(at + "/displayName"),
                email: manifest.string(at + "/email"), firstName: manifest.string(at + "/firstName"),
                lastName: manifest.string(at + "/lastName"),
                roles: manifest.array(at + "/roles").compactMap(\.stringValue),
                permissions: manifest.array(at + "/permissions").compactMap(\.stringValue))
            users.append(AuthService.User(profile: profile, password: password))
        }
        let day = 86_400
        return AuthService(
            users: users,
            secret: manifest.string("/auth/secret") ?? "mockstack-insecure-test-secret-of-32-bytes",
            accessTokenLifetime: Int64(manifest.int("/auth/accessTokenLifetime", in: 1...(3650 * day)) ?? 14 * day),
            refreshTokenLifetime: Int64(manifest.int("/auth/refreshTokenLifetime", in: 1...(3650 * day)) ?? 365 * day))
    }

    private func readHost(_ manifest: ManifestReader) -> HostSettings {
        manifest.rejectUnknownKeys(at: "/host", allowed: Self.hostKeys)
        var host = HostSettings()
        if let dialect = BehaviourReader.dialect(in: manifest, at: "/host/serializer") { host.dialect = dialect }
        if let debug = manifest.value(at: "/host/debugMode") {
            if let flag = debug.boolValue {
                host.debugMode = flag
            } else {
                manifest.report("expected true or false, found \(debug.typeName)", at: "/host/debugMode")
            }
        }
        if let serviceClass = manifest.string("/host/serviceClass") { host.serviceClass = serviceClass }
        if let maximum = manifest.int("/host/maximumFields", in: 1...1_000_000) { host.limits.maximumFields = maximum }
        if let version = manifest.string("/host/swiftVersion") { host.swiftVersion = version }
        if let text = manifest.string("/host/typesDate") {
            if let date = DateTimeValue(parsing: text) {
                host.typesDate = date
            } else {
                manifest.report("'\(text)' is not an ISO-8601 date (2025-11-21T22:15:03Z)", at: "/host/typesDate")
            }
        }
        if manifest.value(at: "/host/cors") != nil { host.cors = readCors(manifest) }
        if let typesDate { host.typesDate = typesDate }
        if let clock { host.clock = clock }
        return host
    }

    /// `host.cors`: `{"middleware": "CorsFeature" | "UseCors", "origins", "methods", "headers",
    /// "allowCredentials", "exposeHeaders", "maxAge"}`, defaulting as each middleware does.
    private func readCors(_ manifest: ManifestReader) -> CorsPolicy? {
        let at = "/host/cors"
        manifest.rejectUnknownKeys(
            at: at,
            allowed: ["middleware", "origins", "methods", "headers", "allowCredentials", "exposeHeaders", "maxAge"])
        let name = manifest.string(at + "/middleware", required: true)
        guard let name, let middleware = CorsPolicy.Middleware(rawValue: name) else {
            if let name {
                manifest.report(
                    "unknown middleware '\(name)' (expected CorsFeature or UseCors)", at: at + "/middleware")
            }
            return nil
        }
        func strings(_ key: String) -> [String]? {
            manifest.value(at: at + "/" + key) == nil ? nil : manifest.array(at + "/" + key).compactMap(\.stringValue)
        }
        let corsFeature = middleware == .corsFeature
        let credentials = manifest.value(at: at + "/allowCredentials")?.boolValue ?? false
        let policy = CorsPolicy(
            middleware: middleware,
            origins: strings("origins") ?? (corsFeature ? ["*"] : []),
            methods: strings("methods") ?? (corsFeature ? CorsPolicy.corsFeatureMethods : []),
            headers: strings("headers") ?? (corsFeature ? ["Content-Type"] : []),
            allowCredentials: credentials,
            exposeHeaders: strings("exposeHeaders") ?? [],
            maxAge: manifest.int(at + "/maxAge", in: 0...Int(Int32.max)) ?? (corsFeature ? 600 : nil))
        if policy.origins.isEmpty { manifest.report("'origins' needs at least one origin (or \"*\")", at: at) }
        if middleware == .useCors, credentials, policy.origins.contains("*") {
            manifest.report("UseCors refuses to allow any origin with credentials", at: at + "/origins")
        }
        return policy
    }
}
