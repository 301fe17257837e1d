public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `mockstack serve` child process on a free port, ready when ``launch(arguments:apps:fixtures:binary:timeout:)``
/// returns. It reads the child's ready line instead of sleeping or guessing a port, and
/// terminates the child on ``stop()`` or when released.
///
/// The child cannot outlive the test process: its standard input is a pipe whose other end only
/// this process holds, and it runs with `--stop-on-stdin-eof`, so when this process exits —
/// normally, crashed or SIGKILLed — the kernel closes that end and the server stops.
public final class MockStackProcess: MockStackHandle, @unchecked Sendable {
    // @unchecked: `process` is only touched under `lock`; the pipes are drained by their own threads.
    /// The ready line the child printed: its port, URL, apps and pid.
    public let ready: ReadyEvent
    /// The token the child's control plane wants, if any; every control call sends it.
    public let adminToken: String?
    private let process: Process
    private let stderrTail: OutputTail
    /// The write end of the child's standard input, held open for the child's life.
    private let lifeline: FileHandle
    private let lock = NSLock()

    private init(process: Process, ready: ReadyEvent, adminToken: String?, stderrTail: OutputTail, lifeline: FileHandle) {
        self.process = process
        self.ready = ready
        self.adminToken = adminToken
        self.stderrTail = stderrTail
        self.lifeline = lifeline
    }

    deinit { stop() }

    /// Spawns `mockstack serve --port 0` and waits for its ready line.
    /// - Parameters:
    ///   - arguments: extra `serve` arguments (`["--threads", "2"]`).
    ///   - apps: load only these apps (`--apps`); all when nil.
    ///   - fixtures: fixtures folders, read as one (`serve --fixtures` repeated: later folders win on
    ///     an app folder's name); the shipped one when empty.
    ///   - binary: the executable; by default `MOCKSTACK_BIN`, then the build folder of the
    ///     running tests, then `PATH`.
    ///   - timeout: how long to wait for readiness.
    /// - Throws: ``MockStackLaunchError`` with the child's stderr when it does not become ready.
    public static func launch(
        arguments: [String] = [],
        apps: [String]? = nil,
        fixtures: [URL] = [],
        binary: URL? = nil,
        timeout: Duration = .seconds(15)
    ) throws -> MockStackProcess {
        let executable = try binary ?? MockStackBinary.find()
        let process = Process()
        process.executableURL = executable
        var all = ["serve", "--port", "0", "--log-level", "warning", Self.lifelineOption]
        for folder in fixtures { all += ["--fixtures", folder.path] }
        if let apps { all += ["--apps", apps.joined(separator: ",")] }
        process.arguments = all + arguments
        // The token the child will want: one in the arguments, else MOCKSTACK_ADMIN_TOKEN, which
        // it inherits; bound off loopback with neither, one made here and handed to it.
        var environment = ProcessInfo.processInfo.environment
        var adminToken = Self.value(of: "--admin-token", in: arguments) ?? ControlSession.environmentToken
        if adminToken == nil, let host = Self.value(of: "--host", in: arguments), !AdminToken.isLoopback(host) {
            adminToken = AdminToken.make()
            environment["MOCKSTACK_ADMIN_TOKEN"] = adminToken
        }
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let input = Pipe()
        process.standardInput = input
        // Only this process may hold the write end: a child that inherited it would keep the
        // server alive after this process died.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)

        let tail = OutputTail()
        let firstLine = FirstLine()
        // Both pipes are drained for the child's whole life, so it never blocks on a full pipe.
        Thread.detachNewThread {
            while true {
                let data = stderr.fileHandleForReading.availableData
                if data.isEmpty { break }
                tail.append(data)
            }
            tail.finish()
        }
        Thread.detachNewThread {
            while true {
                let data = stdout.fileHandleForReading.availableData
                firstLine.append(data)
                if data.isEmpty { break }
            }
        }
        do {
            try process.run()
        } catch {
            throw MockStackLaunchError("cannot run \(executable.path): \(error.localizedDescription)")
        }
        // The control calls' URLSession, and its first request, take tens of milliseconds in a
        // process: both done while the child loads.
        Thread.detachNewThread { ControlSession.warmUp() }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard let line = firstLine.wait(seconds: seconds), let ready = ReadyEvent(line: line) else {
            // Its stdout ended: it exited (or is exiting); else the wait timed out.
            let timedOut = !firstLine.reachedEnd
            if timedOut { process.terminate() }
            process.waitUntilExit()
            // Everything it said, not only what the drain had read when it exited.
            tail.waitUntilFinished(seconds: 2)
            let reason = timedOut ? "no ready line within \(timeout)" : "exited with status \(process.terminationStatus) before it was ready"
            if tail.text.contains("'\(lifelineOption)'") {
                throw MockStackLaunchError("\(executable.path) is older than this MockStackTesting (it has no \(lifelineOption)): rebuild it from the same mockstack checkout or version, or point MOCKSTACK_BIN at one that is\n\(tail.text)")
            }
            throw MockStackLaunchError("mockstack \(reason)\n\(tail.text)")
        }
        try? input.fileHandleForReading.close()
        return MockStackProcess(process: process, ready: ready, adminToken: adminToken, stderrTail: tail, lifeline: input.fileHandleForWriting)
    }

    /// The `serve` flag that ties the child's life to its standard input.
    static let lifelineOption = "--stop-on-stdin-eof"

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends SIGTERM and waits for the graceful exit (SIGKILL after 5 s).
    public func stop() {
        lock.withLock {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(2_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// The child's exit status, once it has exited.
    public var exitStatus: Int32? {
        lock.withLock { process.isRunning ? nil : process.terminationStatus }
    }

    /// The last part of what the child wrote to stderr.
    public var standardError: String { stderrTail.text }

    /// The value of `--name value` or `--name=value` in `serve` arguments (the last one wins,
    /// as the parser takes it).
    static func value(of option: String, in arguments: [String]) -> String? {
        var found: String?
        for (index, argument) in arguments.enumerated() {
            if argument == option, index + 1 < arguments.count { found = arguments[index + 1] }
            if argument.hasPrefix(option + "=") { found = String(argument.dropFirst(option.count + 1)) }
        }
        return found
    }
}

/// Why a mockstack could not be started.
public struct MockStackLaunchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with the last of the child's output when it printed any.
    public var message: String
    /// An error that says `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Keeps the last 64 KiB a child wrote.
final class OutputTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let ended = DispatchSemaphore(value: 0)

    /// The stream reached its end.
    func finish() { ended.signal() }

    /// Waits for ``finish()``, at most `seconds`.
    func waitUntilFinished(seconds: Double) {
        _ = ended.wait(timeout: .now() + seconds)
    }

    func append(_ chunk: Data) {
        lock.withLock {
            data.append(chunk)
            if data.count > 65_536 { data = data.suffix(65_536) }
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// Collects a stream until its first newline and lets one thread wait for it.
final class FirstLine: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer = Data()
    private var line: String?
    private var ended = false

    func append(_ chunk: Data) {
        condition.withLock {
            if chunk.isEmpty { ended = true }
            if line == nil {
                buffer.append(chunk)
                if let newline = buffer.firstIndex(of: 0x0A) {
                    line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                }
            }
            condition.broadcast()
        }
    }

    /// Whether the stream has ended.
    var reachedEnd: Bool { condition.withLock { ended } }

    func wait(seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while line == nil && !ended {
                if !condition.wait(until: deadline) { break }
            }
            return line
        }
    }
}

extension ControlSession {
    /// Makes the control calls' URLSession and sends it one request that cannot reach anything:
    /// port 0, where nothing listens, refuses at once. A process's first request pays for setting
    /// up the URL loading machinery (libcurl's and the session's on Linux), tens of milliseconds
    /// in a debug test process (Benchmarks/README.md); this one pays it while a spawned server
    /// loads, so the first control call does not.
    static func warmUp() {
        guard let nowhere = URL(string: "http://127.0.0.1:0/") else { return }
        shared.dataTask(with: nowhere) { _, _, _ in }.resume()
    }
}
