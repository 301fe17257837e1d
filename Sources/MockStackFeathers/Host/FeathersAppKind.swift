import MockStackAuth
public import MockStackCore
import MockStackSocketIO

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Builds ``FeathersApp``s from manifests with `"kind": "feathers"`:
///
/// ```json
/// {
///   "kind": "feathers",
///   "dialect": "v5",
///   "authentication": { "secret": "…", "service": "users", "usernameField": "email" },
///   "services": {
///     "users": { "seed": "users.json", "authenticate": ["find", "get", "update", "patch", "remove"] },
///     "messages": { "paginate": { "default": 10, "max": 50 }, "seed": "messages.json", "authenticate": true },
///     "people": {
///       "schema": { "id": "number", "name": "string", "age": "number" }, "coerce": true, "data": ["name", "age?"]
///     }
///   }
/// }
/// ```
///
/// A service takes `id` (the id field, `id`), `paginate` (`{default, max}`), `multi` (true or a
/// list of `create`/`patch`/`remove`), `methods` (the exposed ones, all six by default),
/// `startId`, `seed` (a JSON array of records in the app folder), `authenticate` (true or a
/// list of methods that need a JWT), `storeLimitBytes` (what its records may hold as JSON,
/// 16 MiB by default), and `schema` (property → `string`, `number`, `integer`, `boolean`,
/// with `?` when it may be null) with `coerce` (docs/feathers.md#query-schemas: true, or the properties a
/// query may name) and `data` (docs/feathers.md#data-schemas: the properties `create` takes), and
/// `resolveData` (docs/feathers.md#data-resolvers: what a new record gets from the caller and the clock). The entity
/// service's password field is stored hashed (seeds may give it in the clear) and never returned;
/// with `ownRecordsOnly` its token-guarded calls reach only the caller's own record.
/// `cors` (true by default) answers as a generated app's `cors()` middleware does.
/// `compat` switches on tolerance for a client's bugs (``FeathersCompat``), off by default.
/// `socketio` takes the options a Feathers app gives `socketio()`: `pingInterval`,
/// `pingTimeout` and `maxHttpBufferSize`.
public struct FeathersAppKind: AppKind {
    public static let kindName = "feathers"
    static let serviceKeys: Set<String> = [
        "id", "paginate", "multi", "methods", "startId", "seed", "authenticate", "schema", "coerce", "data",
        "resolveData", "storeLimitBytes", "ownRecordsOnly",
    ]
    static let authenticationKeys: Set<String> = [
        "secret", "service", "entity", "usernameField", "passwordField", "strategies", "audience", "issuer",
        "expiresIn",
    ]

    /// Replaces the wall clock of every app built (tests pin token times with it).
    public var clock: (@Sendable () -> Date)?

    public init(clock: (@Sendable () -> Date)? = nil) {
        self.clock = clock
    }

    public var name: String { Self.kindName }
    public var manifestKeys: Set<String> { ["dialect", "authentication", "services", "compat", "cors", "socketio"] }
    /// A 500 as Feathers answers an unhandled error (`GeneralError`), in the v5 shape.
    public static func unavailable(_ message: String) -> HTTPResponse {
        FeathersError(.generalError, message).response(.v5)
    }

    public func makeApp(name: String, mount: String, manifest: ManifestReader) -> (any MockApp)? {
        var dialect = FeathersDialect.v5
        if let text = manifest.string("/dialect") {
            if let parsed = FeathersDialect(rawValue: text) {
                dialect = parsed
            } else {
                manifest.report("expected \"v5\" or \"v4\", found \"\(text)\"", at: "/dialect")
            }
        }
        let authentication = readAuthentication(manifest, dialect: dialect)
        guard case .object(let declared)? = manifest.value(at: "/services") else {
            manifest.report(
                manifest.value(at: "/services") == nil
                    ? "required object of services is missing" : "expected an object of path → service", at: "/services"
            )
            return nil
        }
        var services: [MemoryService] = []
        let budget = StoreBudget()
        for (path, _) in declared {
            let pointer = JSONPointer.appending(path, to: "/services")
            guard
                var options = readService(path, at: pointer, manifest, dialect: dialect, authentication: authentication)
            else { continue }
            options.budget = budget
            services.append(
                MemoryService(options: options, seed: readSeed(at: pointer, manifest, secretField: options.secretField))
            )
        }
        if let authentication, !services.contains(where: { $0.options.path == authentication.service }) {
            manifest.report(
                "the entity service \"\(authentication.service)\" is not among the services",
                at: "/authentication/service")
        }
        var cors = true
        if let value = manifest.value(at: "/cors") {
            if let on = value.boolValue {
                cors = on
            } else {
                manifest.report("expected true or false, found \(value.typeName)", at: "/cors")
            }
        }
        return FeathersApp(
            name: name, mount: mount, dialect: dialect, services: services, authentication: authentication,
            clock: clock ?? { Date() },
            realtime: EngineIOEndpoint(settings: EngineIOSettings.read(manifest, at: "/socketio")),
            compat: FeathersCompat.read(manifest), cors: cors)
    }

    private func readService(
        _ path: String, at pointer: String, _ manifest: ManifestReader, dialect: FeathersDialect,
        authentication: FeathersAuthentication?
    ) -> ServiceOptions? {
        let trimmed = path.split(separator: "/").joined(separator: "/")
        guard !trimmed.isEmpty, trimmed != "authentication" || authentication == nil else {
            manifest.report("a service needs a path of its own", at: pointer)
            return nil
        }
        manifest.rejectUnknownKeys(at: pointer, allowed: Self.serviceKeys)
        var options = ServiceOptions(path: trimmed)
        options.dialect = dialect
        if let id = manifest.string(pointer + "/id") { options.idField = id }
        if let start = manifest.int(pointer + "/startId", in: 0...Int(Int32.max)) { options.startId = start }
        if let limit = manifest.int(pointer + "/storeLimitBytes", in: 1...(1 << 40)) { options.storeLimitBytes = limit }
        if manifest.value(at: pointer + "/paginate") != nil {
            manifest.rejectUnknownKeys(at: pointer + "/paginate", allowed: ["default", "max"])
            options.pagination = Pagination(
                defaultLimit: manifest.int(pointer + "/paginate/default", in: 0...1_000_000),
                maxLimit: manifest.int(pointer + "/paginate/max", in: 0...1_000_000))
        }
        options.multi = methods(at: pointer + "/multi", manifest, allowed: [.create, .patch, .remove])
        if manifest.value(at: pointer + "/methods") != nil {
            options.methods = methods(at: pointer + "/methods", manifest, allowed: Set(ServiceMethod.allCases))
        }
        options.authenticate = methods(at: pointer + "/authenticate", manifest, allowed: Set(ServiceMethod.allCases))
        if !options.authenticate.isEmpty, authentication == nil {
            manifest.report(
                "services that need a JWT need an \"authentication\" section", at: pointer + "/authenticate")
        }
        let schema = readSchema(at: pointer + "/schema", manifest)
        options.querySchema = readQueryProperties(at: pointer + "/coerce", schema: schema, manifest)
        options.dataSchema = readDataProperties(at: pointer + "/data", schema: schema, manifest)
        options.dataResolver = readDataResolver(
            at: pointer + "/resolveData", manifest, createNeedsToken: options.authenticate.contains(.create))
        if let authentication, authentication.service == trimmed { options.secretField = authentication.passwordField }
        if let own = manifest.value(at: pointer + "/ownRecordsOnly") {
            if own.boolValue == nil {
                manifest.report("expected true or false, found \(own.typeName)", at: pointer + "/ownRecordsOnly")
            } else if own.boolValue == true, authentication?.service != trimmed {
                manifest.report(
                    "ownRecordsOnly is for the authentication's entity service (its records are the users)",
                    at: pointer + "/ownRecordsOnly")
            } else {
                options.ownRecordsOnly = own.boolValue == true
            }
        }
        return options
    }

    /// `true` (every allowed method), `false`, or a list of method names.
    private func methods(
        at pointer: String, _ manifest: ManifestReader, allowed: Set<ServiceMethod>
    ) -> Set<ServiceMethod> {
        switch manifest.value(at: pointer) {
        case nil, .bool(false)?: return []
        case .bool(true)?: return allowed
        case .array(let names)?:
            var result: Set<ServiceMethod> = []
            for (index, name) in names.enumerated() {
                guard let method = name.stringValue.flatMap(ServiceMethod.init(rawValue:)), allowed.contains(method)
                else {
                    manifest.report(
                        "expected one of \(allowed.map(\.rawValue).sorted().joined(separator: ", "))",
                        at: pointer + "/\(index)")
                    continue
                }
                result.insert(method)
            }
            return result
        case let other?:
            manifest.report("expected true, false or a list of methods, found \(other.typeName)", at: pointer)
            return []
        }
    }

    /// The seed records; the entity service's passwords are hashed on the way in.
    private func readSeed(at pointer: String, _ manifest: ManifestReader, secretField: String?) -> [JSONObject] {
        guard let fileName = manifest.string(pointer + "/seed"),
            let file = manifest.appFile(named: fileName, at: pointer + "/seed")
        else { return [] }
        let display = manifest.displayPath(file.path)
        let document: JSONParser.Document
        do {
            document = try JSONParser().parse(file.bytes, recordPositions: true)
        } catch {
            manifest.report(
                FixtureDiagnostic(
                    file: display, position: error.position, pointer: error.pointer,
                    message: "invalid JSON: \(error.message)"))
            return []
        }
        guard case .array(let items) = document.root else {
            manifest.report(
                FixtureDiagnostic(file: display, position: .start, pointer: "", message: "expected an array of records")
            )
            return []
        }
        var records: [JSONObject] = []
        for (index, item) in items.enumerated() {
            guard var record = item.objectValue else {
                manifest.report(
                    FixtureDiagnostic(
                        file: display, position: document.position(of: "/\(index)"), pointer: "/\(index)",
                        message: "expected a record (an object)"))
                continue
            }
            if let field = secretField, let password = record[field]?.stringValue, !PasswordHasher.isHash(password) {
                record[field] = .string(PasswordHasher.hash(password))
            }
            records.append(record)
        }
        return records
    }

    private func readAuthentication(_ manifest: ManifestReader, dialect: FeathersDialect) -> FeathersAuthentication? {
        guard manifest.value(at: "/authentication") != nil else { return nil }
        manifest.rejectUnknownKeys(at: "/authentication", allowed: Self.authenticationKeys)
        var authentication = FeathersAuthentication(
            secret: manifest.string("/authentication/secret") ?? "mockstack-feathers-insecure-test-secret",
            dialect: dialect)
        if let service = manifest.string("/authentication/service") { authentication.service = service }
        if let entity = manifest.string("/authentication/entity") { authentication.entity = entity }
        if let field = manifest.string("/authentication/usernameField") { authentication.usernameField = field }
        if let field = manifest.string("/authentication/passwordField") { authentication.passwordField = field }
        if manifest.value(at: "/authentication/strategies") != nil {
            authentication.strategies = manifest.array("/authentication/strategies").compactMap(\.stringValue)
        }
        if let audience = manifest.string("/authentication/audience") { authentication.audience = audience }
        if let issuer = manifest.string("/authentication/issuer") { authentication.issuer = issuer }
        if let seconds = manifest.int("/authentication/expiresIn", in: 1...(3650 * 86_400)) {
            authentication.lifetime = TimeInterval(seconds)
        }
        return authentication
    }
}
