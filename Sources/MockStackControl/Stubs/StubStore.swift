package import MockStackCore
import MockStackWire
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The runtime stubs, consulted before the apps on every request while any exist.
package final class StubStore: Sendable {
    private let state = Mutex(State())
    /// The number of stubs, kept beside the lock so that a request finds "none" without taking
    /// it: with no stubs, the usual case, each request costs one load.
    private let stubCount = Atomic<Int>(0)
    /// Where `bodyFile` answers are read from.
    let files: (any FixtureSource)?

    private struct State {
        var stubs: [Stub] = []
        var lastId = 0
        /// Scenarios not in ``Scenario/started``, by scope and name.
        var scenarios: [Scenario.Key: String] = [:]
        /// What `serve --stubs` loaded: the server's stubs a whole reset puts back.
        var fileDefinitions: [StubFiles.Definition] = []
    }

    /// Where stubs' random delays start unless they name a seed.
    let seed: UInt64
    /// The most bytes a `template: true` answer may fill in (``StubAnswer/response(to:json:stub:limit:delivery:)``).
    let templateLimit: Int

    /// - Parameter templateLimit: at least ``StubAnswer/templateLimit``; a server that accepts
    ///   larger request bodies passes its limit, so that a template can echo any body it took.
    package init(files: (any FixtureSource)?, seed: UInt64 = 0, templateLimit: Int = StubAnswer.templateLimit) {
        self.files = files
        self.seed = seed
        self.templateLimit = max(templateLimit, StubAnswer.templateLimit)
    }

    /// Adds a stub from its JSON definition.
    func add(_ json: JSONValue) throws(Stub.Problem) -> Stub {
        let id = state.withLock { state in
            state.lastId += 1
            return "stub-\(state.lastId)"
        }
        let stub = try Stub(id: id, json: json, files: files, seed: seed)
        changingStubs { $0.stubs.append(stub) }
        return stub
    }

    // MARK: Stubs kept in files

    /// Reads stub files (display name → bytes, in load order), checking each definition as
    /// ``add(_:)`` would; every mistake at its line and column.
    package func readFiles(_ files: [(name: String, bytes: [UInt8])]) throws(FixtureErrors) -> [StubFiles.Definition] {
        try StubFiles.read(files) { json -> Stub.Problem? in
            do throws(Stub.Problem) {
                let stub = try Stub(id: "", json: json, files: self.files, seed: seed)
                // Sessions come and go with the tests; a file's stubs are the server's own.
                guard stub.match.session == nil else {
                    return Stub.Problem(
                        field: "match.session",
                        message: "a stub file's stubs answer outside sessions (the server's own)")
                }
                return nil
            } catch {
                return error
            }
        }
    }

    /// Makes `definitions` the server's file stubs: the ones loaded before go (with their hits),
    /// these are added, and a whole reset puts them back from now on.
    package func installFileStubs(_ definitions: [StubFiles.Definition]) {
        changingStubs { state in
            state.fileDefinitions = definitions
            state.stubs.removeAll { $0.origin != nil && $0.match.session == nil }
            state.stubs += compiled(definitions, state: &state)
        }
    }

    /// Puts the file stubs back after a reset removed the server's own: all of them, or one app's.
    func restoreFileStubs(app: String?) {
        changingStubs { state in
            let wanted = state.fileDefinitions.filter { definition in
                app == nil || definition.json["match"]?["app"]?.stringValue == app
            }
            state.stubs += compiled(wanted, state: &state)
        }
    }

    /// Stubs from file definitions, with new ids; one that no longer compiles (a `bodyFile`
    /// removed since) is left out.
    private func compiled(_ definitions: [StubFiles.Definition], state: inout State) -> [Stub] {
        definitions.compactMap { definition in
            state.lastId += 1
            return try? Stub(
                id: "stub-\(state.lastId)", json: definition.json, files: files, seed: seed, origin: definition.origin)
        }
    }

    /// The stub that answers this request, its hit counted: the lowest priority number (as in
    /// WireMock), then the newest, among those that match and are not exhausted.
    ///
    /// Matching runs outside the lock, on a snapshot of the stubs (values: the copy is one
    /// reference count), so a slow match holds up no other loop; the hit is counted under the
    /// stub's own lock (``StubUsage``), where its exhaustion is checked again, so that a stub
    /// with `times` answers no more requests than that however many loops race for it. When
    /// the best candidate was exhausted meanwhile, the next one that matched answers.
    ///
    /// The stubs' regexes share one ``PatternBudget`` for the request, so that however many
    /// stubs there are, matching them cannot hold the loop past it; a stub whose regex runs out
    /// of steps does not match, and `patternBudgetSpent` says so (the journal notes it).
    /// - Parameter subject: the request as matching sees it, made only when there are stubs.
    func answer(
        patternBudgetSpent: inout Bool, _ subject: () -> MatchedRequest
    ) -> (stub: String, response: HTTPResponse, proxy: StubProxying?)? {
        guard stubCount.load(ordering: .acquiring) > 0 else { return nil }
        let snapshot = state.withLock { $0.stubs }
        let subject = subject()
        var budget = PatternBudget()
        let matching = snapshot.indices.filter {
            !snapshot[$0].isExhausted && snapshot[$0].match.matches(subject, within: &budget)
        }
        patternBudgetSpent = budget.isSpent
        let candidates =
            matching
            // The lowest priority number first, the newest among equals.
            .sorted { (snapshot[$0].priority, -$0) < (snapshot[$1].priority, -$1) }
        for candidate in candidates {
            let stub = snapshot[candidate]
            // Counted under the stub's own lock; a stub removed meanwhile still answers the
            // requests that matched it before, as it would have a moment earlier.
            guard let delivery = take(stub) else { continue }
            var response = stub.answer.response(
                to: subject.request, json: subject.json, stub: stub.id, limit: templateLimit, delivery: delivery)
            // The journal shows what the request reached, stubbed or not.
            response.operation = subject.operation
            let proxy = stub.definition.answer.proxyBaseUrl.map {
                StubProxying(baseURL: $0, prefixToRemove: stub.definition.answer.proxyUrlPrefixToRemove)
            }
            return (stub.id, response, proxy)
        }
        return nil
    }

    /// Counts a hit of a stub that matched and draws its delivery, or nil when it may not answer
    /// after all: exhausted meanwhile, or its scenario not in its required state. A scenario's
    /// state is read and moved under the store's lock, with the hit, so that of two loops
    /// racing for one transition only one makes it.
    private func take(_ stub: Stub) -> Delivery? {
        let draw = { (generator: inout SeededRandom) in stub.answer.misbehaviour.delivery(using: &generator) }
        guard let name = stub.definition.scenario else { return stub.usage.take(times: stub.times, draw) }
        return state.withLock { state in
            let key = Scenario.Key(session: stub.match.session, name: name)
            if let required = stub.definition.requiredState, required != state.scenarios[key] ?? Scenario.started {
                return nil
            }
            guard let delivery = stub.usage.take(times: stub.times, draw) else { return nil }
            if let next = stub.definition.newState { state.scenarios[key] = next == Scenario.started ? nil : next }
            return delivery
        }
    }

    var all: [Stub] { state.withLock { $0.stubs } }

    /// The scenarios of one scope (the server's own, or a session's) that its stubs name, by name.
    func scenarios(session: String?) -> [Scenario] {
        state.withLock { state in
            var byName: [String: Scenario] = [:]
            var order: [String] = []
            for stub in state.stubs where stub.match.session == session {
                guard let name = stub.definition.scenario else { continue }
                if byName[name] == nil {
                    order.append(name)
                    byName[name] = Scenario(
                        name: name,
                        state: state.scenarios[Scenario.Key(session: session, name: name)] ?? Scenario.started,
                        possibleStates: [Scenario.started])
                }
                for named in [stub.definition.requiredState, stub.definition.newState].compactMap({ $0 })
                where byName[name]?.possibleStates.contains(named) == false {
                    byName[name]?.possibleStates.append(named)
                }
            }
            return order.compactMap { byName[$0] }
        }
    }

    /// Puts a scenario its stubs name in `newState`; false when no stub of the scope names it.
    func setScenario(_ name: String, to newState: String, session: String?) -> Bool {
        state.withLock { state in
            guard state.stubs.contains(where: { $0.match.session == session && $0.definition.scenario == name }) else {
                return false
            }
            state.scenarios[Scenario.Key(session: session, name: name)] = newState == Scenario.started ? nil : newState
            return true
        }
    }

    /// Every scenario of one scope back to ``Scenario/started``.
    func resetScenarios(session: String?) {
        state.withLock { state in state.scenarios = state.scenarios.filter { $0.key.session != session } }
    }

    /// Removes one stub (when `session` is given, only if it is that session's); false when
    /// there is no such stub.
    func remove(id: String, session: String? = nil) -> Bool {
        changingStubs { state in
            let before = state.stubs.count
            state.stubs.removeAll { $0.id == id && (session == nil || $0.match.session == session) }
            return state.stubs.count < before
        }
    }

    /// Removes every session's stubs, keeping the server's own.
    func removeAllInSessions() {
        changingStubs { state in
            state.stubs.removeAll { $0.match.session != nil }
            state.scenarios = state.scenarios.filter { $0.key.session == nil }
        }
    }

    /// Removes the stubs of one scope: the server's own (`session` nil: those outside every
    /// session, never a session's) or one session's; all of them, or those for one app.
    /// (Every session's stubs go with the sessions: ``removeAllInSessions()``.)
    func removeAll(app: String? = nil, session: String?) {
        changingStubs { state in
            state.stubs.removeAll { $0.match.session == session && (app == nil || $0.match.app == app) }
            // With every stub of the scope gone, its scenarios start over.
            if app == nil { state.scenarios = state.scenarios.filter { $0.key.session != session } }
        }
    }

    /// Changes the stubs under the lock and publishes their new number.
    private func changingStubs<Result>(_ change: (inout State) -> Result) -> Result {
        state.withLock { state in
            let result = change(&state)
            stubCount.store(state.stubs.count, ordering: .releasing)
            return result
        }
    }
}
