import Dispatch
import MockStackCore

/// What every app request goes through, on any port and in any session: the misbehaviour
/// headers' checks, then a runtime stub or the app (journaled either way), then the delay,
/// throttle or fault the request asked for. A request no app or stub takes is journaled too,
/// unmatched (a wrong base URL is the commonest client bug) — or, with a ``FallThrough``,
/// forwarded there and journaled as proxied.
package struct AppPipeline: Sendable {
    let journal: RequestJournal
    let stubs: StubStore
    let faults: RequestFaults
    let fallThrough: FallThrough?
    /// Makes the forwarding of a stub that proxies (`proxyBaseUrl`); nil: such a stub answers 502.
    let stubProxy: FallThrough.Maker?

    package init(
        journal: RequestJournal, stubs: StubStore, faults: RequestFaults, fallThrough: FallThrough? = nil,
        stubProxy: FallThrough.Maker? = nil
    ) {
        self.stubProxy = stubProxy
        self.journal = journal
        self.stubs = stubs
        self.faults = faults
        self.fallThrough = fallThrough
    }

    /// A request for `app`: a runtime stub for it, or the app, journaled either way.
    /// - Parameters:
    ///   - request: the request, its path relative to the session when there is one;
    ///   - mount: the prefix the app answers under, nil for its own ``MockApp/mount``.
    func respond(to request: HTTPRequest, app: any MockApp, mount: String?, session: Session? = nil) -> HTTPResponse {
        let wanted: Misbehaviour
        switch RequestFaults.misbehaviour(of: request) {
        case .success(let asked): wanted = asked
        case .failure(let problem): return PlainError.response(400, problem.message)
        }
        return respond(
            to: request, app: app, mount: mount, session: session, wanted: wanted, faults: session?.faults ?? faults)
    }

    /// A request no app is mounted for: a runtime stub, else the fall-through when there is one,
    /// else `otherwise`, journaled either way (a wrong base URL is the commonest client bug).
    func respondUnmounted(
        to request: HTTPRequest, session: Session? = nil, otherwise: () -> HTTPResponse
    ) -> HTTPResponse {
        let wanted: Misbehaviour
        switch RequestFaults.misbehaviour(of: request) {
        case .success(let asked): wanted = asked
        case .failure(let problem): return PlainError.response(400, problem.message)
        }
        let faults = session?.faults ?? self.faults
        var patternBudgetSpent = false
        if let stubbed = stubs.answer(
            patternBudgetSpent: &patternBudgetSpent, { MatchedRequest(request, app: nil, session: session?.id) })
        {
            if let proxy = stubbed.proxy {
                return forward(
                    request, by: stubbed.stub, to: proxy, app: nil, session: session, wanted: wanted, faults: faults,
                    patternBudgetSpent: patternBudgetSpent)
            }
            let response = faults.apply(wanted, to: stubbed.response)
            record(
                request, app: nil, session: session, response: response, stub: stubbed.stub, duration: .zero,
                patternBudgetSpent: patternBudgetSpent)
            return response
        }
        if let fallThrough {
            return forward(
                request, through: fallThrough, app: nil, session: session, wanted: wanted, faults: faults,
                patternBudgetSpent: patternBudgetSpent)
        }
        let response = otherwise()
        record(
            request, app: nil, session: session, response: response, stub: nil, duration: .zero,
            patternBudgetSpent: patternBudgetSpent)
        return response
    }

    /// The app's request, opened: each read through the existential would copy the app.
    private func respond(
        to request: HTTPRequest, app: some MockApp, mount: String?, session: Session?, wanted: Misbehaviour,
        faults: RequestFaults
    ) -> HTTPResponse {
        let appName = app.name
        // The operation is asked of the app only when a stub names one and the rest of it matched.
        var patternBudgetSpent = false
        let stubbed = stubs.answer(patternBudgetSpent: &patternBudgetSpent) {
            MatchedRequest(
                request, app: appName, session: session?.id, parameterNamesIgnoreCase: app.parameterNamesIgnoreCase
            ) {
                app.operation(for: request.routed(toMount: mount ?? app.mount))
            }
        }
        if let stubbed {
            if let proxy = stubbed.proxy {
                return forward(
                    request, by: stubbed.stub, to: proxy, app: appName, session: session, wanted: wanted,
                    faults: faults, patternBudgetSpent: patternBudgetSpent)
            }
            let response = faults.apply(wanted, to: stubbed.response)
            record(
                request, app: appName, session: session, response: response, stub: stubbed.stub, duration: .zero,
                patternBudgetSpent: patternBudgetSpent)
            return response
        }
        let routed = request.routed(toMount: mount ?? app.mount)
        if let fallThrough {
            // An app's own "no such route" (404 or 405, no operation) falls through too.
            let start = DispatchTime.now().uptimeNanoseconds
            let answer = app.respond(to: routed)
            if answer.operation == nil, answer.status == 404 || answer.status == 405, answer.delivery == .immediate {
                return forward(
                    request, through: fallThrough, app: appName, session: session, wanted: wanted, faults: faults,
                    patternBudgetSpent: patternBudgetSpent)
            }
            return journaled(
                faults.apply(wanted, to: answer), to: request, app: appName, session: session, since: start,
                patternBudgetSpent: patternBudgetSpent)
        }
        guard journal.isEnabled else { return faults.apply(wanted, to: app.respond(to: routed)) }
        // Dispatch's monotonic clock: the same clock_gettime as `ContinuousClock.now`, without
        // the concurrency runtime's work around each read (two per request).
        let start = DispatchTime.now().uptimeNanoseconds
        return journaled(
            faults.apply(wanted, to: app.respond(to: routed)), to: request, app: appName, session: session,
            since: start, patternBudgetSpent: patternBudgetSpent)
    }

    /// Journals the app's answer to `request`, timed from `start`, and hands it back.
    @inline(__always)
    private func journaled(
        _ response: HTTPResponse, to request: HTTPRequest, app: String?, session: Session?, since start: UInt64,
        patternBudgetSpent: Bool
    ) -> HTTPResponse {
        let elapsed = DispatchTime.now().uptimeNanoseconds &- start
        record(
            request, app: app, session: session, response: response, stub: nil, duration: .nanoseconds(Int64(elapsed)),
            patternBudgetSpent: patternBudgetSpent)
        return response
    }

    /// The request handed to the fall-through: answered later (``Delivery/deferred(_:)``, the
    /// loop free meanwhile) with what the upstream said, journaled as proxied once it has.
    private func forward(
        _ request: HTTPRequest, through fallThrough: FallThrough, app: String?, session: Session?, wanted: Misbehaviour,
        faults: RequestFaults, patternBudgetSpent: Bool, stub: String? = nil, sent: HTTPRequest? = nil
    ) -> HTTPResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        let answer = DeferredAnswer(timeoutMilliseconds: fallThrough.timeoutMilliseconds)
        fallThrough.forward(sent ?? request) { response in
            var response = response
            response.operation = nil
            let elapsed = DispatchTime.now().uptimeNanoseconds &- start
            record(
                request, app: app, session: session, response: response, stub: stub,
                duration: .nanoseconds(Int64(elapsed)), proxied: true,
                patternBudgetSpent: patternBudgetSpent)
            answer.complete(with: faults.apply(wanted, to: response))
        }
        var waiting = PlainError.response(
            504, "Gateway Timeout: no answer from the upstream within \(fallThrough.timeoutMilliseconds) ms")
        waiting.delivery = .deferred(answer)
        return waiting
    }

    /// A stub's request forwarded to its `proxyBaseUrl` (the path less its prefix), answered and
    /// journaled as the fall-through's are, under the stub's id; a 502 when nothing can forward.
    private func forward(
        _ request: HTTPRequest, by stub: String, to proxy: StubProxying, app: String?, session: Session?,
        wanted: Misbehaviour, faults: RequestFaults, patternBudgetSpent: Bool
    ) -> HTTPResponse {
        guard let stubProxy else {
            let response = PlainError.response(
                502, "Bad Gateway: stub \(stub) forwards, and this server forwards nothing")
            record(
                request, app: app, session: session, response: response, stub: stub, duration: .zero,
                patternBudgetSpent: patternBudgetSpent)
            return response
        }
        return forward(
            request, through: stubProxy(proxy), app: app, session: session, wanted: wanted, faults: faults,
            patternBudgetSpent: patternBudgetSpent, stub: stub, sent: proxy.forwarded(request))
    }

    /// Into the server's journal, and the session's own when there is one.
    /// A multipart request's parts are described once for both.
    /// - Parameter patternBudgetSpent: a stub's regex ran out of steps on the request (so that stub did not take it).
    private func record(
        _ request: HTTPRequest, app: String?, session: Session?, response: HTTPResponse, stub: String?,
        duration: Duration,
        proxied: Bool = false, patternBudgetSpent: Bool = false
    ) {
        let sessionJournal = session.flatMap { $0.journal.isEnabled ? $0.journal : nil }
        guard journal.isEnabled || sessionJournal != nil else { return }
        let parts = RequestJournal.parts(of: request)
        journal.record(
            app: app, session: session?.id, request: request, response: response, stub: stub, duration: duration,
            parts: parts,
            proxied: proxied, patternBudgetSpent: patternBudgetSpent)
        sessionJournal?.record(
            app: app, session: session?.id, request: request, response: response, stub: stub, duration: duration,
            parts: parts, proxied: proxied, patternBudgetSpent: patternBudgetSpent)
    }
}
