import Synchronization

/// An app built at its first use instead of before the ready line: what ``AppLoader`` makes of
/// an expensive kind (``AppKind/buildsOnFirstUse``) when the fixtures are byte for byte those a
/// full load has already checked (the load cache's hit). Its name, mount and kind are known
/// from the manifest; anything else builds it, once: several loops asking at once wait for the
/// one build. The server also builds it in the background right after the ready line
/// (``build()``), so a client's first request usually finds it ready.
public final class DeferredApp: MockApp {
    public let name: String
    public let mount: String
    public let kind: String
    /// The 500, in the app's own format, answered when the build fails.
    private let unavailable: @Sendable (String) -> HTTPResponse
    /// Held for the whole build: a second caller waits for the first one's app.
    private let state: Mutex<State>

    private enum State {
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
        state = Mutex(.pending(build, onFailure: onFailure))
    }

    /// Whether the app has been built (or its build has failed).
    public var isBuilt: Bool {
        state.withLock { state in
            if case .pending = state { return false }
            return true
        }
    }

    /// The app, built now unless it was already; the mistakes when its build failed.
    @discardableResult
    public func build() -> Result<any MockApp, FixtureErrors> {
        state.withLock { state in
            switch state {
            case .built(let app): return .success(app)
            case .failed(let errors): return .failure(errors)
            case .pending(let build, let onFailure):
                let result = build()
                switch result {
                case .success(let app): state = .built(app)
                case .failure(let errors):
                    state = .failed(errors)
                    onFailure(errors)
                }
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
    public func reset() {
        let built: (any MockApp)? = state.withLock { state in
            if case .built(let app) = state { return app }
            return nil
        }
        built?.reset()
    }

    public func makeSession() -> any MockApp { (try? build().get())?.makeSession() ?? self }
}
