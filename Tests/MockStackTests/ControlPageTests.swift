import Foundation
import MockStack
import MockStackCore
import MockStackSpawn
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The page for people at `/__mockstack/`, checked as served and as Chromium renders it.
@Suite(.timeLimit(.minutes(3)))
struct ControlPageTests {
    let mock: InProcessMockStack
    let client: FeathersClient

    init() throws {
        mock = try InProcessMockStack.shipped()
        client = FeathersClient(mock)
    }

    /// Debian's headless browser, which `make test` installs.
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", ProcessInfo.processInfo.environment["CHROMIUM"] ?? ""]
        .first { !$0.isEmpty && FileManager.default.isExecutableFile(atPath: $0) }

    @Test func isOneSelfContainedHTMLPage() async throws {
        for path in ["/__mockstack/", "/__mockstack", "/__session/alpha/__mockstack/"] {
            let page = try await client.send("GET", path)
            #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.text.hasPrefix("<!doctype html>"))
            // Nothing is fetched from elsewhere: no absolute URLs in attributes, CSS or script.
            for external in ["src=\"http", "href=\"http", "url(http", "@import", "//cdn", "fetch('http", "fetch(\"http"] {
                #expect(!page.text.contains(external), "\(path) has \(external)")
            }
        }
        #expect(try await client.send("POST", "/__mockstack/").status == 405)
    }

    @Test(.enabled(if: chromium != nil, "needs Debian's chromium (make test installs it)"))
    func chromiumShowsTheAppsAndTheJournal() async throws {
        let chromium = try #require(Self.chromium)
        _ = try await client.send("GET", "/example/hello")
        _ = try await client.send("POST", "/feathers/people", json: #"{"name": "Ann"}"#)
        let page = "http://127.0.0.1:\(mock.ready.port)/__mockstack/"
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }

        let dom = try Self.run(chromium, ["--dump-dom", page], profile: folder.appendingPathComponent("dump"))
        // The journal, newest first, with method and path visible.
        let journal = try #require(dom.range(of: "<tbody id=\"journal\">").map { String(dom[$0.upperBound...]) })
        let people = try #require(journal.range(of: "/feathers/people"))
        let hello = try #require(journal.range(of: "/example/hello"))
        #expect(people.lowerBound < hello.lowerBound)
        #expect(journal.contains("class=\"entry\"") && journal.contains("GET") && journal.contains("POST"))
        // The apps with their routes and DTO links, before the journal.
        let appsStart = try #require(dom.range(of: "<div id=\"apps\">"))
        let journalStart = try #require(dom.range(of: "<tbody id=\"journal\">"))
        let apps = String(dom[appsStart.upperBound..<journalStart.lowerBound])
        for app in ["test", "feathers", "example"] { #expect(apps.contains("data-app=\"\(app)\"")) }
        #expect(apps.contains("href=\"/test/types/metadata\"") && apps.contains("href=\"/test/types/swift\""))
        #expect(!apps.contains("href=\"/feathers/types/swift\""))
        #expect(apps.contains("people-paginated") && apps.contains("ThrowValidation"))

        let screenshot = folder.appendingPathComponent("page.png")
        _ = try Self.run(chromium, ["--window-size=1280,900", "--screenshot=\(screenshot.path)", page], profile: folder.appendingPathComponent("shot"))
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 10_000)
    }

    /// Beside the journal a person sees the stubs (hits, near misses), the sessions, the open
    /// sockets and the requests nothing took (with the routes they may have meant); a delayed answer's duration
    /// counts its delay.
    @Test(.enabled(if: chromium != nil, "needs Debian's chromium (make test installs it)"))
    func chromiumShowsStubsSessionsUnmatchedRequestsAndDelays() async throws {
        let chromium = try #require(Self.chromium)
        // The shipped apps and a Feathers app that pings once in ten minutes, so that its socket
        // stays open however long a starved test run takes to render the page.
        let fixtures = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: fixtures) }
        try writeFiles(["patient/app.json": #"{"kind": "feathers", "socketio": {"pingInterval": 600000}, "services": {"notes": {}}}"#],
                       under: fixtures)
        let mock = try InProcessMockStack.shipped(["test", "feathers", "example", "patient"]) { $0.fixtures.append(fixtures) }
        defer { mock.stop() }
        let client = FeathersClient(mock)
        // A Socket.IO client on long-polling, joined to the main namespace.
        let handshake = try await client.send("GET", "/patient/socket.io/?EIO=4&transport=polling")
        let sid = try #require(try JSONParser().parse(String(handshake.text.dropFirst())).root["sid"]?.stringValue)
        let session = "/patient/socket.io/?EIO=4&transport=polling&sid=\(sid)"
        #expect(try await client.send("POST", session, form: "40").status == 200)
        // Scoped to its app, so that its near misses are the test app's requests, not the socket's polls.
        let stub = try await client.send("POST", "/__mockstack/stubs",
                                         json: #"{"match": {"app": "test", "method": "POST", "path": "/test/api/Hello"}, "answer": {"status": 503}}"#)
        #expect(stub.status == 201)
        let stubId = try #require(stub.json["id"]?.stringValue)
        #expect(try await client.send("GET", "/test/api/Hello?name=Near").status == 200)
        #expect(try await client.send("GET", "/api/Hello").status == 404)
        #expect(try await client.send("GET", "/__session/alpha/example/hello").status == 200)
        #expect(try await client.send("GET", "/example/hello", headers: ["X-MockStack-Delay": "150"]).status == 200)
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dom = try Self.run(chromium, ["--dump-dom", "http://127.0.0.1:\(mock.ready.port)/__mockstack/"], profile: folder)

        func section(_ from: String, _ to: String) throws -> String {
            let start = try #require(dom.range(of: from), "no \(from)")
            let end = try #require(dom.range(of: to, range: start.upperBound..<dom.endIndex), "no \(to) after \(from)")
            return String(dom[start.upperBound..<end.lowerBound])
        }
        let stubs = try section("<div id=\"stubs\">", "<section id=\"sessions-section\">")
        #expect(stubs.contains("data-stub=\"\(stubId)\""))
        #expect(stubs.contains("POST /test/api/Hello") && stubs.contains("status 503") && stubs.contains("0 hits"))
        #expect(stubs.contains("GET /test/api/Hello</span> — method GET is not POST"), "\(stubs)")
        let sessions = try section("<div id=\"sessions\">", "<div id=\"sockets\">")
        #expect(sessions.contains("data-session=\"alpha\"") && sessions.contains("href=\"/__session/alpha/__mockstack/\""), "\(sessions)")
        let sockets = try section("<div id=\"sockets\">", "<div id=\"unmatched\">")
        #expect(sockets.contains("data-socket=") && sockets.contains(">patient</b>") && sockets.contains(">polling</span>")
            && sockets.contains(">anonymous</span>") && sockets.contains("Engine.IO 4, Socket.IO 5 · channels: anonymous"), "\(sockets)")
        let unmatched = try section("<div id=\"unmatched\">", "<tbody id=\"journal\">")
        #expect(unmatched.contains("/api/Hello") && unmatched.contains("did you mean <span class=\"mono\">/test/api/Hello</span>"), "\(unmatched)")
        // The unmatched entry's `"app": null` offers no app to filter by.
        let appFilter = try section("<select id=\"app-filter\"", "</select>")
        #expect(appFilter.contains("<option value=\"test\">test</option>") && !appFilter.contains("null"), "\(appFilter)")
        // The delayed answer: its duration is the app's time plus the 150 ms it was held.
        let journal = try section("<tbody id=\"journal\">", "</tbody>")
        let delayed = try #require(journal.firstMatch(of: /waited its 150 ms delay">([0-9.]+) ms</), "\(journal)")
        #expect(try #require(Double(delayed.1)) >= 150)
    }

    /// The page holds what its first poll would fetch, so Chromium's DOM right after the load
    /// event, before any timer or request of the page's own, already shows the journal; a
    /// journaled body cannot end the data's script element. Without the admin token a server
    /// wants, the page holds nothing.
    @Test(.enabled(if: chromium != nil, "needs Debian's chromium (make test installs it)"))
    func thePageShowsTheJournalAsItLoads() async throws {
        let chromium = try #require(Self.chromium)
        #expect(try await client.send("POST", "/feathers/people", json: #"{"name": "</script><!-- Ann"}"#).status == 201)
        #expect(try await client.send("GET", "/example/hello").status == 200)
        let raw = try await client.send("GET", "/__mockstack/")
        #expect(raw.text.contains(#"<script id="initial" type="application/json">{"apps":{"apps":["#))
        #expect(raw.text.contains(#"\u003c/script>\u003c!-- Ann"#) && !raw.text.contains("</script><!-- Ann"))
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dom = try Self.run(chromium, ["--dump-dom", "http://127.0.0.1:\(mock.ready.port)/__mockstack/"], profile: folder,
                               virtualTimeBudget: nil)
        #expect(dom.contains(#"<span class="pill live" id="status">live</span>"#), "\(dom.prefix(2000))")
        let journal = try #require(dom.range(of: "<tbody id=\"journal\">").map { String(dom[$0.upperBound...]) })
        #expect(journal.contains("/example/hello") && journal.contains("/feathers/people"))
        #expect(dom.contains(#"data-app="test""#))

        let guarded = try InProcessMockStack.shipped(["example"]) { $0.adminToken = "page-token" }
        defer { guarded.stop() }
        let guardedClient = FeathersClient(guarded)
        let bare = try await guardedClient.send("GET", "/__mockstack/")
        #expect(bare.status == 200 && !bare.text.contains(#"id="initial""#))
        let withToken = try await guardedClient.send("GET", "/__mockstack/", headers: ["X-MockStack-Admin-Token": "page-token"])
        #expect(withToken.text.contains(#"<script id="initial""#))
    }

    /// Runs headless Chromium to completion and returns what it printed.
    private static func run(_ chromium: String, _ arguments: [String], profile: URL, virtualTimeBudget: Int? = 3000) throws -> String {
        // Virtual time lets the page's 1 s poll run without waiting for it; without it the DOM
        // is dumped once the page has loaded.
        let budget = virtualTimeBudget.map { ["--virtual-time-budget=\($0)"] } ?? []
        let (_, output, _) = try ChildProcess.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu"] + budget
                                                  + ["--user-data-dir=\(profile.path)"] + arguments, errors: .nullDevice)
        return String(decoding: output, as: UTF8.self)
    }
}
