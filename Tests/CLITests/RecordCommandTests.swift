import Foundation
import MockStackCore
import Testing
import TestSupport

/// `mockstack record` and `serve --proxy-unmatched` as a user runs them: a `serve` process is
/// the target, a `record` process writes the app folder, a third `serve` answers from it.
@Suite(.timeLimit(.minutes(1)))
struct RecordCommandTests {
    static func port(of readyLine: String) throws -> Int {
        try #require(try JSONParser().parse(readyLine).root["port"]?.intValue)
    }

    @Test func recordThenServeAnswersAsTheTargetDid() throws {
        let (target, targetLine, _) = try CLITests.serve(["--apps", "example", "--log-level", "warning"])
        defer { target.terminate(); target.waitUntilExit() }
        let targetPort = try Self.port(of: targetLine)
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let (recorder, recorderLine, _) = try CLITests.launch(CLITests.binary, [
            "record", "--target", "http://127.0.0.1:\(targetPort)/example", "--out", out.path, "--app", "shop", "--log-level", "warning",
        ])
        let ready = try JSONParser().parse(recorderLine).root
        #expect(ready["event"] == "listening")
        #expect(ready["apps"] == [:])
        let recorderPort = try Self.port(of: recorderLine)
        let live = try rawExchange(port: recorderPort, "GET /widgets HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(live.status == 200)
        let created = try rawExchange(port: recorderPort, "POST /widgets HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
        #expect(created.status == 201)
        let output = recorder.standardOutput as? Pipe
        recorder.terminate()
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0)
        let summary = String(decoding: output?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(summary == #"{"event":"recorded","app":"shop","kind":"static","folder":"\#(out.path)/shop","answers":2,"conflicts":[]}"# + "\n")

        let (replay, replayLine, _) = try CLITests.serve(["--fixtures", out.path, "--log-level", "warning"])
        defer { replay.terminate(); replay.waitUntilExit() }
        #expect(try JSONParser().parse(replayLine).root["apps"] == ["shop": "/shop"])
        let replayPort = try Self.port(of: replayLine)
        let widgets = try rawExchange(port: replayPort, "GET /shop/widgets HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(widgets.status == 200)
        #expect(widgets.text == live.text)
        let again = try rawExchange(port: replayPort, "POST /shop/widgets HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
        #expect(again.status == 201)
        #expect(again.header("Location") == "/widgets/7")
        #expect(again.text == created.text)
    }

    @Test func serveForwardsWhatNoAppAnswers() throws {
        let (target, targetLine, _) = try CLITests.serve(["--apps", "test", "--log-level", "warning"])
        defer { target.terminate(); target.waitUntilExit() }
        let targetPort = try Self.port(of: targetLine)
        let (proxy, proxyLine, _) = try CLITests.serve(["--apps", "example", "--proxy-unmatched", "http://127.0.0.1:\(targetPort)", "--log-level", "warning"])
        defer { proxy.terminate(); proxy.waitUntilExit() }
        let hello = try rawExchange(port: try Self.port(of: proxyLine), "GET /test/api/Hello?name=Fall HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(hello.status == 200)
        #expect(hello.text == #"{"result":"Hello, Fall!"}"#)
    }

    @Test func badTargetsAndFoldersExitTwoWithOneLine() throws {
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try writeFiles(["a-file": "x", "other/app.json": #"{"kind":"feathers","services":{}}"#], under: out)

        let notURL = try CLITests.run(["record", "--target", "example.com", "--out", out.path])
        #expect(notURL.status == 2)
        #expect(notURL.stdout.isEmpty)
        #expect(notURL.stderr == "mockstack: --target 'example.com' is not a URL (expected http://host[:port][/path]) (see 'mockstack record --help')\n")

        let serveNotURL = try CLITests.run(["serve", "--proxy-unmatched", "ftp://example.com"])
        #expect(serveNotURL.status == 2)
        #expect(serveNotURL.stderr == "mockstack: --proxy-unmatched 'ftp://example.com': the scheme must be http or https, not ftp (see 'mockstack serve --help')\n")

        // A port that was just free: nothing listens there.
        let (gone, goneLine, _) = try CLITests.serve(["--apps", "example", "--log-level", "warning"])
        let port = try Self.port(of: goneLine)
        gone.terminate()
        gone.waitUntilExit()
        let unreachable = try CLITests.run(["record", "--target", "http://127.0.0.1:\(port)", "--out", out.path, "--kind", "static"])
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr == "mockstack: --target http://127.0.0.1:\(port): the upstream http://127.0.0.1:\(port)/ refused the connection\n")

        let (target, targetLine, _) = try CLITests.serve(["--apps", "example", "--log-level", "warning"])
        defer { target.terminate(); target.waitUntilExit() }
        let live = "http://127.0.0.1:\(try Self.port(of: targetLine))/example"
        let file = try CLITests.run(["record", "--target", live, "--out", out.appending(path: "a-file").path])
        #expect(file.status == 2)
        #expect(file.stderr == "mockstack: --out \(out.path)/a-file is a file; it must be a folder (app folders are written inside it)\n")

        let mixed = try CLITests.run(["record", "--target", live, "--out", out.path, "--app", "other", "--kind", "static"])
        #expect(mixed.status == 2)
        #expect(mixed.stderr == "mockstack: \(out.path)/other holds a feathers app; recording --kind static into it would mix two kinds (choose another --app or --out, or --kind feathers)\n")
    }
}
