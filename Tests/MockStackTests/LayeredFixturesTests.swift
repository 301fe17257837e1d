import Foundation
import MockStack
import MockStackCore
import Testing
import TestSupport

/// Several fixtures folders served as one (`--fixtures shipped --fixtures ./mine`), watched.
@Suite(.timeLimit(.minutes(3)))
struct LayeredFixturesTests {
    static func shop(_ greeting: String) -> [String: String] {
        ["shop/app.json": #"{"kind": "static", "routes": [{"path": "/hello", "fixture": "hello.json"}]}"#,
         "shop/hello.json": #"{"greeting": "\#(greeting)"}"#]
    }

    /// An app folder appearing in a later folder replaces the earlier one's at the next reload,
    /// and going away brings the earlier one back. `reloadChangedFixtures()` returns once any
    /// reload the poller had begun is done, so nothing here waits on the clock.
    @Test func aLaterFoldersAppFolderComesAndGoesUnderWatch() throws {
        let base = try makeTemporaryDirectory()
        let mine = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: base)
            try? FileManager.default.removeItem(at: mine)
        }
        try writeFiles(Self.shop("base"), under: base)
        var configuration = MockStackConfiguration(fixtures: [base, mine])
        configuration.watchesFixtures = true
        let server = try MockStackServer(configuration: configuration)
        let port = try server.start().port
        defer { server.shutdown() }
        func greeting() throws -> String {
            String(decoding: try rawExchange(port: port, "GET /shop/hello HTTP/1.1\r\nHost: t\r\n\r\n").body, as: UTF8.self)
        }
        #expect(try greeting() == #"{"greeting":"base"}"#)

        try writeFiles(Self.shop("mine"), under: mine)
        server.reloadChangedFixtures()
        #expect(try greeting() == #"{"greeting":"mine"}"#)

        try FileManager.default.removeItem(at: mine.appendingPathComponent("shop"))
        server.reloadChangedFixtures()
        #expect(try greeting() == #"{"greeting":"base"}"#)
    }
}
