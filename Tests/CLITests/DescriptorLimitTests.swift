import Foundation
import MockStackCore
import Testing
import TestSupport

/// At the open-file limit the server stops accepting for a moment instead of retrying
/// `accept` in a tight loop, says so once, and serves again as soon as descriptors free up
/// (issue 22 §4).
@Suite(.timeLimit(.minutes(1)))
struct DescriptorLimitTests {
    /// `serve` under a shell's `ulimit -n` (soft and hard both), so that it cannot raise it.
    static func serve(openFileLimit: Int) throws -> (process: Process, port: Int, stderr: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" serve --port 0 --apps example", CLITests.binary.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let port = try #require(try JSONParser().parse(String(decoding: line, as: UTF8.self)).root["port"]?.intValue)
        return (process, port, err.fileHandleForReading)
    }

    /// Reads the log until a line holds `text`, returning everything read.
    static func readLog(_ log: FileHandle, until text: String) -> String {
        var seen = ""
        while !seen.contains(text) {
            let chunk = log.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        return seen
    }

    /// CPU time the process has used, in clock ticks (user + system, /proc/PID/stat).
    static func cpuTicks(of pid: Int32) throws -> Int {
        let fields = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8).split(separator: ")").last?.split(separator: " ") ?? []
        // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    @Test func atTheLimitAcceptingPausesWithOneWarningAndResumes() throws {
        let (process, port, log) = try Self.serve(openFileLimit: 40)
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        var held: [RawConnection] = []
        for _ in 0..<60 { held.append(try RawConnection(port: port)) }
        var output = Self.readLog(log, until: "cannot accept connections")
        #expect(output.contains("cannot accept connections: Too many open files"))
        #expect(output.contains("(raise the open-file limit: ulimit -n)"))
        // A second at the limit: retrying at once would spend all of it on the CPU.
        let before = try Self.cpuTicks(of: process.processIdentifier)
        Thread.sleep(forTimeInterval: 1)
        let spent = try Self.cpuTicks(of: process.processIdentifier) - before
        #expect(spent < 20, "\(spent) ticks of CPU in one second at the open-file limit")
        // Free descriptors, and a new client is served.
        held.removeFirst(40)
        let health = try RawConnection(port: port, timeoutSeconds: 10)
        try health.send("GET /__mockstack/health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(try health.readResponse().status == 200)
        process.terminate()
        process.waitUntilExit()
        output += String(decoding: log.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.components(separatedBy: "cannot accept connections").count == 2, "\(output)")
        #expect(!output.contains("Error from accept"))
    }
}
