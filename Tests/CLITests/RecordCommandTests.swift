import Foundation
import MockStackCore
import MockStackSpawn
import Testing
import TestSupport

/// `mockstack record` and `serve --proxy-unmatched` as a user runs them: a `serve` process is
/// the target, a `record` process writes the app folder, a third `serve` answers from it and
/// forwards the rest to the target. The
/// processes are driven off the test runner's threads (``offThePool(_:)``); the assertions
/// read what they said.
@Suite(.timeLimit(.minutes(3)))
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
        var forwarded: RawResponse?
    }

    @Test func recordThenServeAnswersAsTheTargetDid() async throws {
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try await offThePool { () throws -> Run in
            var run = Run()
            let (target, targetLine, _) = try CLITests.serve(["--apps", "example", "--log-level", "warning"])
            defer { target.stop() }
            let targetURL = "http://127.0.0.1:\(try Self.port(of: targetLine))"
            let (recorder, recorderLine, _) = try CLITests.launch(CLITests.binary, [
                "record", "--target", targetURL + "/example", "--out", out.path, "--app", "shop",
                "--log-level", "warning",
            ])
            run.recorderLine = recorderLine
            let recorderPort = try Self.port(of: recorderLine)
            run.live = try rawExchange(port: recorderPort, "GET /widgets HTTP/1.1\r\nHost: t\r\n\r\n")
            run.created = try rawExchange(port: recorderPort, "POST /widgets HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
            run.recorderStatus = recorder.stop().status
            run.summary = String(decoding: recorder.standardOutput.readToEnd(), as: UTF8.self)
            // The replay also forwards what its apps do not answer to the target.
            let (replay, replayLine, _) = try CLITests.serve(["--fixtures", out.path, "--proxy-unmatched", targetURL, "--log-level", "warning"])
            defer { replay.stop() }
            run.replayLine = replayLine
            let replayPort = try Self.port(of: replayLine)
            run.widgets = try rawExchange(port: replayPort, "GET /shop/widgets HTTP/1.1\r\nHost: t\r\n\r\n")
            run.again = try rawExchange(port: replayPort, "POST /shop/widgets HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
            run.forwarded = try rawExchange(port: replayPort, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
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
        #expect(run.forwarded?.status == 200)
        #expect(run.forwarded?.text == #"{"result":"Hello, World!"}"#)
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

        // Port 1 on loopback: nothing listens there. The other two are refused before the target is asked.
        let (unreachable, file, mixed) = try await offThePool { () throws -> (ProcessRun, ProcessRun, ProcessRun) in
            (try CLITests.run(["record", "--target", "http://127.0.0.1:1", "--out", out.path, "--kind", "static"]),
             try CLITests.run(["record", "--target", "http://127.0.0.1:1/example", "--out", out.appending(path: "a-file").path]),
             try CLITests.run(["record", "--target", "http://127.0.0.1:1/example", "--out", out.path, "--app", "other", "--kind", "static"]))
        }
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr == "mockstack: --target http://127.0.0.1:1: the upstream http://127.0.0.1:1/ refused the connection\n")
        #expect(file.status == 2)
        #expect(file.stderr == "mockstack: --out \(out.path)/a-file is a file; it must be a folder (app folders are written inside it)\n")
        #expect(mixed.status == 2)
        #expect(mixed.stderr == "mockstack: \(out.path)/other holds a feathers app; recording --kind static into it would mix two kinds (choose another --app or --out, or --kind feathers)\n")
    }

    /// libcurl is opened at start when something will be forwarded; without it, neither command
    /// serves anything, and each says what to install.
    @Test func withoutLibcurlRecordAndProxyRefuseToStart() async throws {
        let missing = ["MOCKSTACK_LIBCURL": "libcurl-missing.so.4"]
        let (serve, record) = try await offThePool { () throws -> (ProcessRun, ProcessRun) in
            (try CLITests.run(["serve", "--apps", "example", "--proxy-unmatched", "http://127.0.0.1:1"], environment: missing),
             try CLITests.run(["record", "--target", "http://127.0.0.1:1", "--out", "/nonexistent"], environment: missing))
        }
        let reason = "libcurl (libcurl-missing.so.4) could not be loaded: install libcurl4 "
            + "(libcurl-missing.so.4: cannot open shared object file: No such file or directory)"
        #expect(serve.status == 2)
        #expect(serve.stdout.isEmpty)
        #expect(serve.stderr == "mockstack: --proxy-unmatched needs libcurl: \(reason)\n")
        #expect(record.status == 2)
        #expect(record.stdout.isEmpty)
        #expect(record.stderr == "mockstack: record needs libcurl: \(reason)\n")
    }
}
