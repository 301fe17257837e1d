import Foundation
import MockStackCore
import Testing
import TestSupport

/// `mockstack record` and `serve --proxy-unmatched` as a user runs them: a `serve` process is
/// the target, a `record` process writes the app folder, a third `serve` answers from it. The
/// processes are driven off the test runner's threads (``offThePool(_:)``); the assertions
/// read what they said.
@Suite(.timeLimit(.minutes(1)))
struct RecordCommandTests {
    static func port(of readyLine: String) throws -> Int {
        guard let port = try JSONParser().parse(readyLine).root["port"]?.intValue else { throw RawHTTPError("no port in \(readyLine)") }
        return port
    }

    /// What one run of record-then-serve saw.
    struct Run: Sendable {
        var recorderLine = ""
        var live: RawResponse?
        var created: RawResponse?
        var recorderStatus: Int32 = -1
        var summary = ""
        var replayLine = ""
        var widgets: RawResponse?
        var again: RawResponse?
    }

    @Test func recordThenServeAnswersAsTheTargetDid() async throws {
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try await offThePool { () throws -> Run in
            var run = Run()
            let (target, targetLine, _) = try CLITests.serve(["--apps", "example", "--log-level", "warning"])
            defer { target.terminate(); target.waitUntilExit() }
            let (recorder, recorderLine, _) = try CLITests.launch(CLITests.binary, [
                "record", "--target", "http://127.0.0.1:\(try Self.port(of: targetLine))/example", "--out", out.path, "--app", "shop",
                "--log-level", "warning",
            ])
            run.recorderLine = recorderLine
            let recorderPort = try Self.port(of: recorderLine)
            run.live = try rawExchange(port: recorderPort, "GET /widgets HTTP/1.1\r\nHost: t\r\n\r\n")
            run.created = try rawExchange(port: recorderPort, "POST /widgets HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
            let output = recorder.standardOutput as? Pipe
            recorder.terminate()
            recorder.waitUntilExit()
            run.recorderStatus = recorder.terminationStatus
            run.summary = String(decoding: output?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            let (replay, replayLine, _) = try CLITests.serve(["--fixtures", out.path, "--log-level", "warning"])
            defer { replay.terminate(); replay.waitUntilExit() }
            run.replayLine = replayLine
            let replayPort = try Self.port(of: replayLine)
            run.widgets = try rawExchange(port: replayPort, "GET /shop/widgets HTTP/1.1\r\nHost: t\r\n\r\n")
            run.again = try rawExchange(port: replayPort, "POST /shop/widgets HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
            return run
        }
        let ready = try JSONParser().parse(run.recorderLine).root
        #expect(ready["event"] == "listening")
        #expect(ready["apps"] == [:])
        #expect(run.live?.status == 200)
        #expect(run.created?.status == 201)
        #expect(run.recorderStatus == 0)
        #expect(run.summary == #"{"event":"recorded","app":"shop","kind":"static","folder":"\#(out.path)/shop","answers":2,"conflicts":[]}"# + "\n")
        #expect(try JSONParser().parse(run.replayLine).root["apps"] == ["shop": "/shop"])
        #expect(run.widgets?.status == 200)
        #expect(run.widgets?.text == run.live?.text)
        #expect(run.again?.status == 201)
        // The target's Location under its base, as the recorder's path for it.
        #expect(run.again?.header("Location") == "/widgets/7")
        #expect(run.again?.text == run.created?.text)
    }

    @Test func serveForwardsWhatNoAppAnswers() async throws {
        let hello = try await offThePool { () throws -> RawResponse in
            let (target, targetLine, _) = try CLITests.serve(["--apps", "test", "--log-level", "warning"])
            defer { target.terminate(); target.waitUntilExit() }
            let (proxy, proxyLine, _) = try CLITests.serve(["--apps", "example", "--proxy-unmatched", "http://127.0.0.1:\(try Self.port(of: targetLine))",
                                                            "--log-level", "warning"])
            defer { proxy.terminate(); proxy.waitUntilExit() }
            return try rawExchange(port: try Self.port(of: proxyLine), "GET /test/api/Hello?name=Fall HTTP/1.1\r\nHost: t\r\n\r\n")
        }
        #expect(hello.status == 200)
        #expect(hello.text == #"{"result":"Hello, Fall!"}"#)
    }

    @Test func badTargetsAndFoldersExitTwoWithOneLine() async throws {
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try writeFiles(["a-file": "x", "other/app.json": #"{"kind":"feathers","services":{}}"#], under: out)

        let notURL = try await offThePool { try CLITests.run(["record", "--target", "example.com", "--out", out.path]) }
        #expect(notURL.status == 2)
        #expect(notURL.stdout.isEmpty)
        #expect(notURL.stderr == "mockstack: --target 'example.com' is not a URL (expected http://host[:port][/path]) (see 'mockstack record --help')\n")

        let serveNotURL = try await offThePool { try CLITests.run(["serve", "--proxy-unmatched", "ftp://example.com"]) }
        #expect(serveNotURL.status == 2)
        #expect(serveNotURL.stderr == "mockstack: --proxy-unmatched 'ftp://example.com': the scheme must be http or https, not ftp (see 'mockstack serve --help')\n")

        // A port that was just free: nothing listens there.
        let (port, unreachable) = try await offThePool { () throws -> (Int, ProcessRun) in
            let (gone, goneLine, _) = try CLITests.serve(["--apps", "example", "--log-level", "warning"])
            let port = try Self.port(of: goneLine)
            gone.terminate()
            gone.waitUntilExit()
            return (port, try CLITests.run(["record", "--target", "http://127.0.0.1:\(port)", "--out", out.path, "--kind", "static"]))
        }
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr == "mockstack: --target http://127.0.0.1:\(port): the upstream http://127.0.0.1:\(port)/ refused the connection\n")

        let (file, mixed) = try await offThePool { () throws -> (ProcessRun, ProcessRun) in
            let (target, targetLine, _) = try CLITests.serve(["--apps", "example", "--log-level", "warning"])
            defer { target.terminate(); target.waitUntilExit() }
            let live = "http://127.0.0.1:\(try Self.port(of: targetLine))/example"
            return (try CLITests.run(["record", "--target", live, "--out", out.appending(path: "a-file").path]),
                    try CLITests.run(["record", "--target", live, "--out", out.path, "--app", "other", "--kind", "static"]))
        }
        #expect(file.status == 2)
        #expect(file.stderr == "mockstack: --out \(out.path)/a-file is a file; it must be a folder (app folders are written inside it)\n")
        #expect(mixed.status == 2)
        #expect(mixed.stderr == "mockstack: \(out.path)/other holds a feathers app; recording --kind static into it would mix two kinds (choose another --app or --out, or --kind feathers)\n")
    }
}
