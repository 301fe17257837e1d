import Foundation
import MockStack
import MockStackInProcess
import TestSupport

/// An in-process server with the `test` app for the Server Events end-to-end suites: the shipped
/// app, or a copy in a temporary fixtures folder whose manifest has `serverEvents` as given.
final class ServerEventsServer {
    let mock: InProcessMockStack
    private let root: URL?

    /// The shipped app.
    init() throws {
        let configuration = MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["test"])
        mock = try InProcessMockStack(configuration: configuration)
        root = nil
    }

    /// A copy of the app whose `serverEvents` is `settings` (a JSON object).
    init(serverEvents settings: String) throws {
        let root = try makeTemporaryDirectory()
        let app = root.appendingPathComponent("test")
        try FileManager.default.copyItem(at: ServerTests.fixtures.appendingPathComponent("test"), to: app)
        let manifest = app.appendingPathComponent("app.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: #""serverEvents": {}"#, with: #""serverEvents": \#(settings)"#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        self.root = root
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [root], apps: ["test"]))
    }

    /// A copy that keeps a silent subscription ten minutes: a test holding a stream across awaits
    /// can wait its turn on a loaded machine longer than the default 30 s, which would end it.
    static func patient() throws -> ServerEventsServer {
        try ServerEventsServer(serverEvents: #"{"idleTimeoutMs": 600000}"#)
    }

    var port: Int { mock.ready.port }

    func stop() {
        mock.stop()
        if let root { try? FileManager.default.removeItem(at: root) }
    }
}
