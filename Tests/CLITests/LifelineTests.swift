import Foundation
import MockStackCore
import TestSupport
import XCTest

/// `serve --stop-on-stdin-eof`, and the servers MockStackTesting spawns: none outlives the
/// process that started it, even one killed with SIGKILL (issue 23). XCTest cases, so their
/// waits for processes block a test worker's thread, never Swift Testing's shared ones.
final class LifelineTests: XCTestCase {
    func testTheServerStopsWhenItsStandardInputCloses() throws {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["serve", "--port", "0", "--apps", "example", "--log-level", "warning", "--stop-on-stdin-eof"]
        let input = Pipe(), output = Pipe()
        // A child another test spawns meanwhile must not inherit the end the server waits on.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let line = String(decoding: output.fileHandleForReading.readLine(), as: UTF8.self)
        let port = try XCTUnwrap(try JSONParser().parse(line).root["port"]?.intValue, line)
        // Bytes on the pipe are dropped; the server keeps serving.
        input.fileHandleForWriting.write(Data("ignored\n".utf8))
        XCTAssertEqual(try rawExchange(port: port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n").status, 200)
        try input.fileHandleForWriting.close()
        XCTAssertTrue(try Self.waitForExit(process.processIdentifier), "the server still runs after its stdin closed")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testWithoutAPipeToWatchTheFlagIsRefused() throws {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["serve", "--port", "0", "--apps", "example", "--log-level", "error", "--stop-on-stdin-eof"]
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2)
        XCTAssertEqual(stderr, "mockstack: cannot watch descriptor 0 for its end: it must be a pipe, socket or terminal, not a file or /dev/null\n")
        XCTAssertTrue(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    func testSpawnedServersDieWithAKilledTestProcess() throws {
        let probe = CLITests.binary.deletingLastPathComponent().appendingPathComponent("spawn-probe")
        let (process, out, _) = try ProcessRun.start(probe, [], environment: ["MOCKSTACK_BIN": CLITests.binary.path])
        let line = String(decoding: out.fileHandleForReading.readLine(), as: UTF8.self)
        let pids = line.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(pids.count, 2, "the probe printed \(line)")
        XCTAssertTrue(pids.allSatisfy(Self.isRunning))

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
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
