import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program started with `posix_spawn(3)`: its output (and, unless sent elsewhere, its errors)
/// on pipes this process reads, an exit status to wait for, signals to send.
///
/// Foundation's `Process` is not used: in Swift 6.3.1 on Linux its `run()` sometimes crashes while
/// it walks `/proc/self/fd` to close descriptors in the child (swift-corelibs-foundation #5472).
/// Here the descriptors this type makes are close-on-exec from their creation, and on Linux the
/// child closes every other descriptor above 2 before it runs the program, so a child started
/// meanwhile on another thread inherits none of another's pipes (which would, for one, keep a
/// server's `--stop-on-stdin-eof` lifeline open).
///
/// The child is reaped by a thread of its own as soon as it exits, so it never stays a zombie,
/// and ``signal(_:)`` never reaches a process that has been reaped (whose id may be reused).
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `ended` is read and written only under `condition`; the rest is immutable.

    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// This process's own.
        case inherited
        /// `/dev/null`: the child reads its end at once.
        case nullDevice
        /// A pipe whose write end is ``ChildProcess/standardInput``, held by this process alone.
        case pipe
    }

    /// Where the child's standard error goes.
    public enum ErrorOutput: Sendable {
        /// A pipe of its own: ``ChildProcess/standardError``.
        case pipe
        /// The same pipe as its standard output (`2>&1`).
        case standardOutput
        /// `/dev/null`.
        case nullDevice
    }

    /// The child's process id.
    public let pid: Int32
    /// The read end of the child's standard output.
    public let standardOutput: ChildPipe
    /// The read end of the child's standard error, when it has a pipe of its own.
    public let standardError: ChildPipe?
    /// The write end of the child's standard input, when it is ``Input/pipe``: closing it (or
    /// this process ending, even killed) is the end of the child's input.
    public let standardInput: ChildPipe?

    private let condition = NSCondition()
    private var ended: Termination?

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - executable: the program's path (no `PATH` lookup).
    ///   - arguments: its arguments, without the program's name (`argv[0]` is `executable`).
    ///   - environment: the child's whole environment; nil: this process's.
    ///   - input: its standard input (by default this process's, as a shell would).
    ///   - errors: where its standard error goes.
    /// - Throws: ``SpawnError`` naming the program and the system's reason (no such file, not
    ///   executable, …).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: Input = .inherited, errors: ErrorOutput = .pipe
    ) throws(SpawnError) {
        let output = try PipeEnds.make(for: executable)
        let errorPipe = errors == .pipe ? try PipeEnds.make(for: executable) : nil
        let inputPipe = input == .pipe ? try PipeEnds.make(for: executable) : nil
        var plan = SpawnPlan()
        defer { plan.release() }
        switch input {
        case .inherited: break
        case .nullDevice: plan.open(0, "/dev/null", O_RDONLY)
        case .pipe: plan.duplicate(inputPipe!.read, to: 0)
        }
        plan.duplicate(output.write, to: 1)
        switch errors {
        case .pipe: plan.duplicate(errorPipe!.write, to: 2)
        case .standardOutput: plan.duplicate(output.write, to: 2)
        case .nullDevice: plan.open(2, "/dev/null", O_WRONLY)
        }
        let environment = environment ?? ProcessInfo.processInfo.environment
        let spawned = plan.spawn(
            executable, arguments: arguments,
            environment: environment.map { "\($0.key)=\($0.value)" })
        // The child's ends are the child's alone now.
        output.closeWrite()
        errorPipe?.closeWrite()
        inputPipe?.closeRead()
        switch spawned {
        case .failure(let code):
            output.closeRead()
            errorPipe?.closeRead()
            inputPipe?.closeWrite()
            throw SpawnError(executable: executable, code: code.value)
        case .success(let pid):
            self.pid = pid
        }
        standardOutput = ChildPipe(output.read)
        standardError = errorPipe.map { ChildPipe($0.read) }
        standardInput = inputPipe.map { ChildPipe($0.write) }
        let reaper = Thread { [self] in reap() }
        reaper.name = "ChildProcess \(pid)"
        reaper.start()
    }

    /// Runs `executable` to its end and returns what it printed on each stream and how it
    /// ended. Both streams are read as they come (one on another thread), so a child that fills
    /// one pipe never blocks on it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: Input = .inherited,
        errors: ErrorOutput = .pipe
    ) throws(SpawnError) -> (termination: Termination, output: [UInt8], errors: [UInt8]) {
        let child = try ChildProcess(executable, arguments, environment: environment, input: input, errors: errors)
        let errorBytes = child.standardError.map { pipe in BackgroundRead(pipe) }
        let output = child.standardOutput.readToEnd()
        return (child.wait(), output, errorBytes?.result() ?? [])
    }

    /// Waits for the child to end.
    @discardableResult
    public func wait() -> Termination {
        condition.withLock {
            while ended == nil { condition.wait() }
            return ended!
        }
    }

    /// Waits at most `timeout` for the child to end; nil if it still runs.
    public func wait(timeout: Duration) -> Termination? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while ended == nil {
                if !condition.wait(until: deadline) { break }
            }
            return ended
        }
    }

    /// How the child ended, or nil while it runs.
    public var termination: Termination? { condition.withLock { ended } }

    /// Sends `signal` to the child, unless it has ended.
    public func signal(_ signal: Int32) {
        condition.withLock {
            // Until the reaper has taken the lock, an ended child is a zombie: its id is still its.
            if ended == nil { _ = kill(pid, signal) }
        }
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGTERM and waits for the child to end; SIGKILL if it has not after `grace`.
    @discardableResult
    public func stop(grace: Duration = .seconds(5)) -> Termination {
        terminate()
        if let ended = wait(timeout: grace) { return ended }
        signal(SIGKILL)
        return wait()
    }

    /// Waits (without reaping) for the child's end, then reaps it under the lock, so that
    /// ``signal(_:)`` never sends to a reused process id.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        condition.withLock {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            ended = Termination(waitStatus: status)
            condition.broadcast()
        }
    }
}

/// Why a child could not be started.
public struct SpawnError: Error, Sendable, CustomStringConvertible {
    /// The program that was to run.
    public var executable: String
    /// The system's error number.
    public var code: Int32

    /// `cannot run PATH: reason`.
    public var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
}
