/// How one service behaves (docs/feathers.md#services), from the app's manifest.
public struct ServiceOptions: Sendable {
    /// The path under the app (`messages`, `people-paginated`), without slashes at either end.
    public var path: String
    public var idField = "id"
    public var dialect: FeathersDialect = .v5
    public var pagination: Pagination?
    /// The methods that may act on several records (`create` with an array, `patch` and
    /// `remove` without an id).
    public var multi: Set<ServiceMethod> = []
    /// The methods the service exposes; the others answer 405.
    public var methods: Set<ServiceMethod> = Set(ServiceMethod.allCases)
    public var startId = 0
    /// The methods that need a valid JWT (`authenticate('jwt')`).
    public var authenticate: Set<ServiceMethod> = []
    /// `coerce`: every query is validated and converted by this schema first.
    public var querySchema: QuerySchema?
    /// `data`: what `create`, `update` and `patch` take, checked before they run.
    public var dataSchema: DataSchema?
    /// `resolveData`: what `create` and `update` records get from the caller and the clock.
    public var dataResolver: DataResolver?
    /// For the authentication entity (`users`): the field stored hashed and never returned.
    public var secretField: String?
    /// For the authentication entity: a call made with a token reaches only the caller's own
    /// record, as a generated v5 app's user query resolver sets the query's id to the
    /// authenticated user's. Manifest: `ownRecordsOnly`.
    public var ownRecordsOnly = false
    /// The most the service's records may hold, written as JSON; a write past it is refused
    /// (``FeathersError/storeFull(_:limit:)``). It bounds the store's memory, and with it what
    /// an unpaginated `find` answers. Manifest: `storeLimitBytes`.
    public var storeLimitBytes = ServiceOptions.defaultStoreLimitBytes
    /// What the app's records may weigh together, its sessions' included; shared by the app's
    /// services (none: only the store's own limit).
    public var budget: StoreBudget?

    /// 16 MiB: a test's records are kilobytes; a store that grows past this is a runaway loop.
    public static let defaultStoreLimitBytes = 16 * 1024 * 1024

    public init(path: String) {
        self.path = path
    }
}
