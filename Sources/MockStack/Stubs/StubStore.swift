import Foundation
import MockStackCore
import Synchronization

/// The runtime stubs, consulted before the apps on every request while any exist.
final class StubStore: Sendable {
    private let state = Mutex(State())
    /// Where `bodyFile` answers are read from.
    let files: URL?

    private struct State {
        var stubs: [Stub] = []
        var lastId = 0
    }

    init(files: URL?) {
        self.files = files
    }

    /// Adds a stub from its JSON definition.
    func add(_ json: JSONValue) throws(Stub.Problem) -> Stub {
        let id = state.withLock { state in
            state.lastId += 1
            return "stub-\(state.lastId)"
        }
        let stub = try Stub(id: id, json: json, files: files)
        state.withLock { $0.stubs.append(stub) }
        return stub
    }

    var isEmpty: Bool { state.withLock { $0.stubs.isEmpty } }

    /// The stub that answers this request, its hit counted: the highest priority, then the
    /// newest, among those that match and are not exhausted.
    func answer(_ request: HTTPRequest, app: String?) -> (stub: String, response: HTTPResponse)? {
        let chosen: Stub? = state.withLock { state in
            var best: Int?
            for index in state.stubs.indices where !state.stubs[index].isExhausted && state.stubs[index].match.mismatch(request, app: app) == nil {
                if let current = best, state.stubs[current].priority > state.stubs[index].priority { continue }
                best = index
            }
            guard let best else { return nil }
            state.stubs[best].hits += 1
            return state.stubs[best]
        }
        return chosen.map { ($0.id, $0.answer.response(to: request)) }
    }

    var all: [Stub] { state.withLock { $0.stubs } }

    /// Removes one stub; false when there is none with that id.
    func remove(id: String) -> Bool {
        state.withLock { state in
            let before = state.stubs.count
            state.stubs.removeAll { $0.id == id }
            return state.stubs.count < before
        }
    }

    /// Removes every stub, or those for one app.
    func removeAll(app: String? = nil) {
        state.withLock { state in state.stubs.removeAll { app == nil || $0.match.app == app } }
    }
}
