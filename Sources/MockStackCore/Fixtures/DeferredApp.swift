import Synchronization

/// An app built after the ready line instead of before it: what a load cache hit makes of every
/// app (docs/load-cache.md), the fixtures being known to be those a full load has already
/// checked. Its name, mount and kind come from the record; anything else builds it, once:
/// several loops asking at once wait for the one build. The server also builds it in the
/// background right after the ready line (``build()``), so a client's first request usually
/// finds it ready.
public final class DeferredApp: MockApp {
    public let name: String
    public let mount: String
    public let kind: String
    /// The 500, in the app's own format, answered when the build fails.
    private let unavailable: @Sendable (String) -> HTTPResponse
    /// Held for the whole build: a second caller waits for the first one's app.
    private let state: Mutex<Guarded>

    private struct Guarded {
        var stage: Stage
        /// Told of the app once it is built (``whenBuilt(_:)``).
        var waiting: [@Sendable (any MockApp) -> Void] = []
    }

    private enum Stage {
        case pending(@Sendable () -> Result<any MockApp, FixtureErrors>, onFailure: @Sendable (FixtureErrors) -> Void)
        case built(any MockApp)
        case failed(FixtureErrors)
    }

    /// - Parameters:
    ///   - build: makes the app; run once, by the first caller.
    ///   - unavailable: the answer when `build` fails.
    ///   - onFailure: told once of the mistakes a failed build found (the server logs them).
    public init(name: String, mount: String, kind: String, unavailable: @escaping @Sendable (String) -> HTTPResponse,
                onFailure: @escaping @Sendable (FixtureErrors) -> Void = { _ in },
                build: @escaping @Sendable () -> Result<any MockApp, FixtureErrors>) {
        self.name = name
        self.mount = mount
        self.kind = kind
        self.unavailable = unavailable
        state = Mutex(Guarded(stage: .pending(build, onFailure: onFailure)))
    }

    /// Whether the app has been built (or its build has failed).
    public var isBuilt: Bool {
        state.withLock { guarded in
            if case .pending = guarded.stage { return false }
            return true
        }
    }

    /// The app when it has been built, without building it.
    public var builtApp: (any MockApp)? {
        state.withLock { guarded in
            if case .built(let app) = guarded.stage { return app }
            return nil
        }
    }

    /// Runs `action` with the app once it is built: now when it already is, else right after
    /// its build (never when the build fails). It must not call back into this app.
    public func whenBuilt(_ action: @escaping @Sendable (any MockApp) -> Void) {
        state.withLock { guarded in
            switch guarded.stage {
            case .built(let app): action(app)
            case .pending: guarded.waiting.append(action)
            case .failed: break
            }
        }
    }

    /// The app, built now unless it was already; the mistakes when its build failed.
    @discardableResult
    public func build() -> Result<any MockApp, FixtureErrors> {
        state.withLock { guarded in
            switch guarded.stage {
            case .built(let app): return .success(app)
            case .failed(let errors): return .failure(errors)
            case .pending(let build, let onFailure):
                let result = build()
                switch result {
                case .success(let app):
                    guarded.stage = .built(app)
                    for action in guarded.waiting { action(app) }
                case .failure(let errors):
                    guarded.stage = .failed(errors)
                    onFailure(errors)
                }
                guarded.waiting = []
                return result
            }
        }
    }

    public var routes: [RouteDescription] { (try? build().get())?.routes ?? [] }

    public var parameterNamesIgnoreCase: Bool { (try? build().get())?.parameterNamesIgnoreCase ?? false }

    public func operation(for request: HTTPRequest) -> String? { (try? build().get())?.operation(for: request) }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        switch build() {
        case .success(let app): return app.respond(to: request)
        case .failure(let errors):
            return unavailable("the app '\(name)' could not be built: \(errors.diagnostics.first?.description ?? "no reason given")")
        }
    }

    /// Not built yet: nothing has changed from the fixture state, so nothing to reset.
    public func reset() { builtApp?.reset() }

    public func makeSession() -> any MockApp { (try? build().get())?.makeSession() ?? self }
}

/// A ``DeferredApp`` of a kind whose apps hold sockets (Feathers): a ``RealtimeApp`` before its
/// build, so the control plane's socket calls and the real-time journal find it. Until it is
/// built it has no connections (none can open before a request builds it); an observer given
/// before then is handed to the app when it is built; a delay set before then builds it.
public final class DeferredRealtimeApp: RealtimeApp {
    /// The app and its build.
    public let deferred: DeferredApp

    public init(_ deferred: DeferredApp) {
        self.deferred = deferred
    }

    private var built: (any RealtimeApp)? { deferred.builtApp?.realtime }

    public var name: String { deferred.name }
    public var mount: String { deferred.mount }
    public var kind: String { deferred.kind }
    public var routes: [RouteDescription] { deferred.routes }
    public var parameterNamesIgnoreCase: Bool { deferred.parameterNamesIgnoreCase }
    public func operation(for request: HTTPRequest) -> String? { deferred.operation(for: request) }
    public func respond(to request: HTTPRequest) -> HTTPResponse { deferred.respond(to: request) }
    public func reset() { deferred.reset() }
    public func makeSession() -> any MockApp { deferred.makeSession() }

    public var realtimeConnections: [RealtimeConnection] { built?.realtimeConnections ?? [] }
    public func disconnect(_ id: String) -> Bool { built?.disconnect(id) ?? false }
    public func disconnectAll() { built?.disconnectAll() }
    public func push(event name: String, arguments: [JSONValue], to audience: RealtimeAudience) -> Int {
        built?.push(event: name, arguments: arguments, to: audience) ?? 0
    }
    public func delayEvents(byMilliseconds milliseconds: Int) {
        (try? deferred.build().get())?.realtime?.delayEvents(byMilliseconds: milliseconds)
    }
    public var eventDelayMilliseconds: Int { built?.eventDelayMilliseconds ?? 0 }
    public func observeActivity(_ observer: @escaping @Sendable (RealtimeActivity) -> Void) {
        deferred.whenBuilt { $0.realtime?.observeActivity(observer) }
    }
}
