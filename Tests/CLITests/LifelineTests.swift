import Foundation
import MockStackCore
import MockStackSpawn
import TestSupport
import XCTest

/// `serve --stop-on-stdin-eof`, and the servers MockStackTesting spawns: none outlives the
/// process that started it, even one killed with SIGKILL. XCTest cases, so their
/// waits for processes block a test worker's thread, never Swift Testing's shared ones.
final class LifelineTests: XCTestCase {
    func testTheServerStopsWhenItsStandardInputCloses() throws {
        // The pipe's write end is close-on-exec: a child another test spawns meanwhile does not
        // inherit the end the server waits on.
        let process = try ProcessRun.start(CLITests.binary, ["serve", "--port", "0", "--apps", "example", "--log-level", "warning", "--stop-on-stdin-eof"],
                                           input: .pipe)
        defer { process.stop() }
        let line = try XCTUnwrap(process.standardOutput.readLine().line)
        let port = try XCTUnwrap(try JSONParser().parse(line).root["port"]?.intValue, line)
        let input = try XCTUnwrap(process.standardInput)
        // Bytes on the pipe are dropped; the server keeps serving.
        XCTAssertTrue(input.write(Array("ignored\n".utf8)))
        XCTAssertEqual(try rawExchange(port: port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n").status, 200)
        input.close()
        XCTAssertEqual(process.wait(timeout: .seconds(20)), .exited(0), "the server still runs after its stdin closed")
    }

    func testWithoutAPipeToWatchTheFlagIsRefused() throws {
        let (termination, output, errors) = try ChildProcess.run(
            CLITests.binary.path, ["serve", "--port", "0", "--apps", "example", "--log-level", "error", "--stop-on-stdin-eof"],
            input: .nullDevice)
        XCTAssertEqual(termination, .exited(2))
        XCTAssertEqual(String(decoding: errors, as: UTF8.self),
                       "mockstack: cannot watch descriptor 0 for its end: it must be a pipe, socket or terminal, not a file or /dev/null\n")
        XCTAssertTrue(output.isEmpty)
    }

    func testSpawnedServersDieWithAKilledTestProcess() throws {
        let probe = CLITests.binary.deletingLastPathComponent().appendingPathComponent("spawn-probe")
        let process = try ProcessRun.start(probe, [], environment: ["MOCKSTACK_BIN": CLITests.binary.path])
        let line = try XCTUnwrap(process.standardOutput.readLine().line)
        let pids = line.split(separator: " ").compactMap { Int32($0) }
        XCTAssertEqual(pids.count, 2, "the probe printed \(line)")
        XCTAssertTrue(pids.allSatisfy(Self.isRunning))

        process.signal(SIGKILL)
        XCTAssertEqual(process.wait(), .signaled(SIGKILL))
        // Each server sees its standard input end and stops gracefully.
        for pid in pids {
            XCTAssertTrue(try Self.waitForExit(pid), "server \(pid) outlived the killed probe")
        }
    }

    /// Polls every 20 ms until `pid` has exited; false if it still runs after 20 s.
    static func waitForExit(_ pid: Int32) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while isRunning(pid) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// Whether `pid` is a live process (a zombie nobody reaped has exited).
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        #if os(Linux)
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state != "Z" && state != "X"
        #else
        return true
        #endif
    }
}
