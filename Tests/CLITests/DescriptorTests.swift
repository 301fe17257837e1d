import Foundation
import MockStackCore
import MockStackSpawn
import Testing
import TestSupport

/// Descriptors the server holds: a delayed answer lets its socket go when the
/// client leaves; at the open-file limit the server stops accepting for a moment instead of
/// retrying `accept` in a tight loop, says so once, and serves again as soon as descriptors
/// free up.
@Suite(.timeLimit(.minutes(3)))
struct DescriptorTests {
    /// `serve` under a shell's `ulimit -n` (soft and hard both), so that it cannot raise it.
    static func serve(openFileLimit: Int = 1024) throws -> (process: ChildProcess, port: Int, stderr: ChildPipe) {
        let (process, line, err) = try CLITests.launch(URL(fileURLWithPath: "/bin/sh"), [
            "-c", "ulimit -n \(openFileLimit) && exec \"$0\" serve --port 0 --apps example", CLITests.binary.path,
        ])
        let port = try #require(try JSONParser().parse(line).root["port"]?.intValue)
        return (process, port, err)
    }

    /// Reads the log until a line holds `text`, returning everything read.
    static func readLog(_ log: ChildPipe, until text: String) -> String {
        var seen = ""
        while !seen.contains(text) {
            let chunk = log.read()
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
        defer { process.stop() }
        var held: [RawConnection] = []
        for _ in 0..<60 { held.append(try RawConnection(port: port)) }
        var output = Self.readLog(log, until: "cannot accept connections")
        #expect(output.contains("cannot accept connections: Too many open files"))
        #expect(output.contains("(raise the open-file limit: ulimit -n)"))
        // A second at the limit: retrying at once would spend all of it on the CPU.
        let before = try Self.cpuTicks(of: process.pid)
        Thread.sleep(forTimeInterval: 1)
        let spent = try Self.cpuTicks(of: process.pid) - before
        #expect(spent < 20, "\(spent) ticks of CPU in one second at the open-file limit")
        // Free descriptors, and a new client is served.
        held.removeFirst(40)
        let health = try RawConnection(port: port, timeoutSeconds: 10)
        try health.send("GET /__mockstack/health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(try health.readResponse().status == 200)
        process.stop()
        output += String(decoding: log.readToEnd(), as: UTF8.self)
        #expect(output.components(separatedBy: "cannot accept connections").count == 2, "\(output)")
        #expect(!output.contains("Error from accept"))
    }

    /// Whether process `pid` holds the server side of the loopback connection from
    /// `clientPort` to `serverPort` (its socket's inode, from /proc/net/tcp, among its descriptors).
    static func holdsConnection(pid: Int32, serverPort: Int, clientPort: Int) throws -> Bool {
        // Read to its end: String(contentsOfFile:) stops at the first 4 KiB of a /proc file.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/net/tcp"))
        let table = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        let local = String(format: ":%04X", serverPort), remote = String(format: ":%04X", clientPort)
        let inodes = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) else { return nil }
            return String(fields[9])
        }
        guard !inodes.isEmpty else { return false }
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        return descriptors.contains { descriptor in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")) ?? ""
            return inodes.contains { target == "socket:[\($0)]" }
        }
    }

    /// The local port of a connected socket.
    static func localPort(of socket: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aDelayedAnswerLetsItsSocketGoWhenTheClientLeaves() throws {
        let (process, port, log) = try Self.serve()
        defer { process.stop() }
        let stub = #"{"match": {"path": "/example/hello"}, "answer": {"status": 200, "delayMs": 600000}}"#
        let added = try rawExchange(port: port, "POST /__mockstack/stubs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                                    + "Content-Length: \(stub.utf8.count)\r\nConnection: close\r\n\r\n" + stub)
        #expect(added.status == 201)
        var client: RawConnection? = try RawConnection(port: port)
        let clientPort = Self.localPort(of: try #require(client).fd)
        try client?.send("GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        // The stub counts its hit when the request arrives: then the delay has begun.
        for _ in 0..<500 {
            let stubs = try rawExchange(port: port, "GET /__mockstack/stubs HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            if try JSONParser().parse(stubs.body).root["stubs"]?.arrayValue?.first?["hits"]?.intValue == 1 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(try Self.holdsConnection(pid: process.pid, serverPort: port, clientPort: clientPort))
        client = nil
        let output = Self.readLog(log, until: "GET /example/hello fault:client gone")
        #expect(output.contains("GET /example/hello fault:client gone"))
        #expect(try !Self.holdsConnection(pid: process.pid, serverPort: port, clientPort: clientPort))
    }
}
