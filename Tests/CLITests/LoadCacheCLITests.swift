import Foundation
import MockStackCore
import MockStackSpawn
import Testing
import TestSupport

/// The load cache through the binary: a second start on the same fixtures hits the first's
/// record (its debug line says so) and answers alike; `validate` warms it; a broken edit still
/// stops `serve` with the same mistakes.
@Suite(.timeLimit(.minutes(3)))
struct LoadCacheCLITests {
    /// One start: the answers to a few requests, and what it logged.
    static func start(_ arguments: [String], cache: URL) throws -> (answers: [String], log: String) {
        let (process, line, errors) = try CLITests.serve(arguments + ["--log-level", "debug"], environment: ["MOCKSTACK_CACHE_DIR": cache.path])
        var answers: [String] = []
        do {
            let port = try #require(try JSONParser().parse(line).root["port"]?.intValue)
            for target in ["/test/api/Hello?name=World", "/test/json/reply/Hello?name=Reply", "/__mockstack/apps", "/example/widgets"] {
                let response = try rawExchange(port: port, "GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
                answers.append("\(response.status) \(response.text)")
            }
        } catch {
            // A failed exchange must not leave the server running past the test.
            process.stop()
            throw error
        }
        process.stop()
        return (answers, String(decoding: errors.readToEnd(), as: UTF8.self))
    }

    @Test func aSecondStartHitsAndAnswersAlike() throws {
        let cache = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let first = try Self.start(["--apps", "test,example"], cache: cache)
        let second = try Self.start(["--apps", "test,example"], cache: cache)
        #expect(first.log.contains("load cache: miss (no record); record written to \(cache.path)/"))
        #expect(second.log.contains("load cache: hit ("))
        #expect(first.answers == second.answers)
        #expect(first.answers[0] == #"200 {"result":"Hello, World!"}"#)
        let off = try Self.start(["--apps", "test,example", "--no-load-cache"], cache: cache)
        #expect(off.log.contains("load cache: off"))
        #expect(off.answers == first.answers)
    }

    @Test func validateWarmsTheCacheForServe() throws {
        let cache = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let validated = try CLITests.run(["validate"], environment: ["MOCKSTACK_CACHE_DIR": cache.path])
        #expect(validated.status == 0)
        #expect(validated.stdout.hasPrefix("ok: 6 app(s)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".record") }.count == 1)
        #expect(try Self.start([], cache: cache).log.contains("load cache: hit ("))
    }

    @Test func aBrokenEditAfterAHitStillStopsServe() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixtures = root.appendingPathComponent("fixtures")
        let cache = root.appendingPathComponent("cache")
        try writeFiles(["test/app.json": #"{"kind": "servicestack", "metadata": "metadata.json"}"#,
                        "test/metadata.json": try String(contentsOf: packageRoot.appendingPathComponent("Fixtures/ai/metadata.json"), encoding: .utf8)],
                       under: fixtures)
        for expected in ["load cache: miss (no record)", "load cache: hit ("] {
            let (process, line, errors) = try CLITests.serve(["--fixtures", fixtures.path, "--log-level", "debug"], environment: ["MOCKSTACK_CACHE_DIR": cache.path])
            #expect(line.hasPrefix(#"{"event":"listening""#))
            process.stop()
            #expect(String(decoding: errors.readToEnd(), as: UTF8.self).contains(expected))
        }
        try writeFiles(["test/metadata.json": #"{"types": [{"name": 1}]"#], under: fixtures)
        let cached = try CLITests.run(["serve", "--fixtures", fixtures.path], environment: ["MOCKSTACK_CACHE_DIR": cache.path])
        let uncached = try CLITests.run(["serve", "--fixtures", fixtures.path, "--no-load-cache"])
        #expect(cached.status == 2)
        #expect(cached.stdout.isEmpty)
        #expect(cached.stderr.contains("metadata.json:1:"))
        #expect(cached.stderr == uncached.stderr)
    }

    /// On a hit every app is built after the ready line, Feathers and static apps too: with the
    /// background build off, the first request builds each. The socket list, a Socket.IO
    /// connection and its activity journal work as on the start that loaded everything.
    @Test func feathersRealtimeAndStaticAppsWorkOnAHit() throws {
        let cache = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        for expected in ["load cache: miss (no record)", "load cache: hit ("] {
            let (process, line, errors) = try CLITests.serve(["--apps", "feathers,example", "--log-level", "debug"],
                                                             environment: ["MOCKSTACK_CACHE_DIR": cache.path, "MOCKSTACK_BACKGROUND_BUILD": "off"])
            do {
                let ready = try JSONParser().parse(line).root
                let port = try #require(ready["port"]?.intValue)
                #expect(ready["apps"] == ["example": "/example", "feathers": "/feathers"])
                func get(_ target: String) throws -> RawResponse { try rawExchange(port: port, "GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n") }
                let before = try get("/__mockstack/sockets")
                #expect(before.status == 200)
                #expect(before.text == #"{"sockets":[],"eventDelayMs":{"feathers":0}}"#)
                // An Engine.IO handshake, then Socket.IO's connect: the app reports it to the journal.
                let handshake = try get("/feathers/socket.io/?EIO=4&transport=polling")
                #expect(handshake.status == 200)
                let sid = try #require(try JSONParser().parse(Array(handshake.text.utf8.dropFirst())).root["sid"]?.stringValue)
                let polling = "/feathers/socket.io/?EIO=4&transport=polling&sid=\(sid)"
                let connect = try rawExchange(port: port, "POST \(polling) HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Length: 2\r\n\r\n40")
                #expect(connect.text == "ok")
                #expect(try get(polling).text.hasPrefix("40{\"sid\":"))
                let sockets = try JSONParser().parse(Array(try get("/__mockstack/sockets?app=feathers").text.utf8)).root
                #expect(sockets["sockets"]?.arrayValue?.count == 1)
                let activity = try JSONParser().parse(Array(try get("/__mockstack/sockets/activity?app=feathers").text.utf8)).root
                #expect(activity["activity"]?.arrayValue?.map { $0["kind"] } == ["connected"])
                #expect(try get("/example/widgets").status == 200)
                #expect(try get("/feathers/people").status == 200)
            } catch {
                process.stop()
                throw error
            }
            process.stop()
            #expect(String(decoding: errors.readToEnd(), as: UTF8.self).contains(expected))
        }
    }
}
