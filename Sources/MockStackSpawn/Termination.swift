/// How a child process ended.
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal it did not handle ended it.
    case signaled(Int32)

    /// The exit status, or the signal's number (as a shell's `$?` less 128, or Foundation's
    /// `terminationStatus`).
    public var status: Int32 {
        switch self {
        case .exited(let status), .signaled(let status): status
        }
    }

    /// Reads a `waitpid(2)` status: the low seven bits are the signal that ended it (0: it
    /// exited), the next byte its exit status.
    init(waitStatus: Int32) {
        let signal = waitStatus & 0x7f
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
    }

    /// `exit status N` or `signal N`.
    public var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}
