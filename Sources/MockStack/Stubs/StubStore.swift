#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackCore
import Synchronization

/// The runtime stubs, consulted before the apps on every request while any exist.
final class StubStore: Sendable {
    private let state = Mutex(State())
    /// The number of stubs, kept beside the lock so that a request finds "none" without taking
    /// it: with no stubs, the usual case, each request costs one load.
    private let stubCount = Atomic<Int>(0)
    /// Where `bodyFile` answers are read from.
    let files: DirectoryFixtureSource?

    private struct State {
        var stubs: [Stub] = []
        var lastId = 0
    }

    /// Where stubs' random delays start unless they name a seed.
    let seed: UInt64

    init(files: DirectoryFixtureSource?, seed: UInt64 = 0) {
        self.files = files
        self.seed = seed
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


    /// The stub that answers this request, its hit counted: the highest priority, then the
    /// newest, among those that match and are not exhausted.
    func answer(_ request: HTTPRequest, app: String?, session: String?) -> (stub: String, response: HTTPResponse)? {
        guard stubCount.load(ordering: .acquiring) > 0 else { return nil }
        let chosen: (stub: Stub, delivery: Delivery)? = state.withLock { state in
            var best: Int?
            for index in state.stubs.indices where !state.stubs[index].isExhausted && state.stubs[index].match.mismatch(request, app: app, session: session) == nil {
                if let current = best, state.stubs[current].priority > state.stubs[index].priority { continue }
                best = index
            }
            guard let best else { return nil }
            state.stubs[best].hits += 1
            let delivery = state.stubs[best].answer.misbehaviour.delivery(using: &state.stubs[best].generator)
            return (state.stubs[best], delivery)
        }
        return chosen.map { ($0.stub.id, $0.stub.answer.response(to: request, delivery: $0.delivery)) }
    }

    var all: [Stub] { state.withLock { $0.stubs } }

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
        changingStubs { state in state.stubs.removeAll { $0.match.session != nil } }
    }

    /// Removes every stub, or those for one app, or one session's (or one app's in one session).
    func removeAll(app: String? = nil, session: String? = nil) {
        changingStubs { state in
            state.stubs.removeAll { (app == nil || $0.match.app == app) && (session == nil || $0.match.session == session) }
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
