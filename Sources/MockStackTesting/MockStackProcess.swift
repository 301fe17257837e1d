// Spawning needs macOS or Linux, where alone the package gives this target MockStackSpawn;
// elsewhere MockStackMode.spawned says so.
#if os(macOS) || os(Linux)

public import Foundation
import MockStackSpawn

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
public final class MockStackProcess: MockStackHandle, Sendable {
    /// The ready line the child printed: its port, URL, apps and pid.
    public let ready: ReadyEvent
    /// The token the child's control plane wants, if any; every control call sends it.
    public let adminToken: String?
    /// The child, holding the write end of its standard input (the lifeline) for its life.
    private let child: ChildProcess
    private let stderrTail: OutputTail

    private init(child: ChildProcess, ready: ReadyEvent, adminToken: String?, stderrTail: OutputTail) {
        self.child = child
        self.ready = ready
        self.adminToken = adminToken
        self.stderrTail = stderrTail
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
        // The token the child will want: one in the arguments, else MOCKSTACK_ADMIN_TOKEN, which
        // it inherits; bound off loopback with neither, one made here and handed to it.
        var environment = ProcessInfo.processInfo.environment
        var adminToken = Self.value(of: "--admin-token", in: arguments) ?? ControlSession.environmentToken
        if adminToken == nil, let host = Self.value(of: "--host", in: arguments), !AdminToken.isLoopback(host) {
            adminToken = AdminToken.make()
            environment["MOCKSTACK_ADMIN_TOKEN"] = adminToken
        }
        // Standard input is a pipe whose write end only this process holds (ChildProcess makes
        // it close-on-exec): a child that inherited it would keep the server alive after this
        // process died.
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable.path, serveArguments(arguments: arguments, apps: apps, fixtures: fixtures),
                environment: environment, input: .pipe)
        } catch {
            throw MockStackLaunchError(error.description)
        }
        // Its stderr is drained for its whole life, so it never blocks on a full pipe.
        let tail = OutputTail(child.standardError)
        // The control calls' URLSession, and its first request, are slow to set up in a
        // process: both done while the child loads.
        Thread.detachNewThread { ControlSession.warmUp() }
        let reason: String
        switch child.standardOutput.readLine(timeout: timeout) {
        case .line(let line):
            if let ready = ReadyEvent(line: line) {
                // The rest of its stdout is drained too.
                let output = child.standardOutput
                Thread.detachNewThread { while !output.read().isEmpty {} }
                return MockStackProcess(child: child, ready: ready, adminToken: adminToken, stderrTail: tail)
            }
            child.stop()
            reason = "printed no ready line but '\(line)'"
        case .ended:
            reason = "exited with status \(child.wait().status) before it was ready"
        case .timedOut:
            child.stop()
            reason = "no ready line within \(timeout)"
        }
        // Everything it said, not only what the drain had read when it exited.
        tail.waitUntilFinished(seconds: 2)
        if tail.text.contains("'\(lifelineOption)'") {
            throw MockStackLaunchError(
                """
                \(executable.path) is older than this MockStackTesting (it has no \(lifelineOption)): rebuild it from \
                the same mockstack checkout or version, or point MOCKSTACK_BIN at one that is\n\(tail.text)
                """
            )
        }
        throw MockStackLaunchError("mockstack \(reason)\n\(tail.text)")
    }

    /// The child's command line: `serve` on a free port, quiet, tied to this process, reading
    /// `fixtures` and `apps`, then the caller's `arguments`.
    static func serveArguments(arguments: [String], apps: [String]?, fixtures: [URL]) -> [String] {
        var all = ["serve", "--port", "0", "--log-level", "warning", lifelineOption]
        for folder in fixtures { all += ["--fixtures", folder.path] }
        if let apps { all += ["--apps", apps.joined(separator: ",")] }
        return all + arguments
    }

    /// The `serve` flag that ties the child's life to its standard input.
    static let lifelineOption = "--stop-on-stdin-eof"

    /// The child's process id.
    public var pid: Int32 { child.pid }

    /// Sends SIGTERM and waits for the graceful exit (SIGKILL after 5 s).
    public func stop() {
        child.stop(grace: .seconds(5))
    }

    /// The child's exit status, once it has exited.
    public var exitStatus: Int32? { child.termination?.status }

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

/// Keeps the last 64 KiB a child wrote on a pipe, read on a thread of its own to the pipe's end.
final class OutputTail: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`.
    private let lock = NSLock()
    private var data: [UInt8] = []
    private let ended = DispatchSemaphore(value: 0)

    /// Starts reading `pipe` (nothing to read when there is none).
    init(_ pipe: ChildPipe?) {
        Thread.detachNewThread { [self] in
            while let chunk = pipe?.read(), !chunk.isEmpty { append(chunk) }
            ended.signal()
        }
    }

    /// Waits for the pipe's end, at most `seconds`.
    func waitUntilFinished(seconds: Double) {
        _ = ended.wait(timeout: .now() + seconds)
    }

    private func append(_ chunk: [UInt8]) {
        lock.withLock {
            data += chunk
            if data.count > 65_536 { data.removeFirst(data.count - 65_536) }
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

extension ControlSession {
    /// Makes the control calls' URLSession and sends it one request that cannot reach anything:
    /// port 0, where nothing listens, refuses at once. A process's first request pays for setting
    /// up the URL loading machinery (libcurl's and the session's on Linux), which is slow in a
    /// debug test process; this one pays it while a spawned server loads, so the first control
    /// call does not.
    static func warmUp() {
        guard let nowhere = URL(string: "http://127.0.0.1:0/") else { return }
        shared.dataTask(with: nowhere) { _, _, _ in }.resume()
    }
}

#endif
