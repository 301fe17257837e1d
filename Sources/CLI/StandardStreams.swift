#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to stdout and stderr: one `write(2)` per call where the pipe allows, so a
/// parent reading the ready line sees it at once and log lines never interleave mid-line.
enum StandardStream {
    case output, error

    func write(_ text: String) {
        // A closed stream leaves nothing useful to do with the text.
        _ = writeAll(text, to: self == .output ? STDOUT_FILENO : STDERR_FILENO)
    }
}

/// Prints a line on stderr.
func printError(_ text: String) {
    StandardStream.error.write(text + "\n")
}

/// Why a system call failed: the C library's words for `errno`.
struct SystemError: Error, CustomStringConvertible {
    var code: Int32
    var description: String { String(cString: strerror(code)) }
}

/// Writes `text` to `path` atomically (a temporary file beside it, then `rename(2)`), so a
/// reader polling for the file never sees half of it. Throws the system's reason on failure.
func writeFileAtomically(_ text: String, to path: String) throws(SystemError) {
    let temporary = path + ".tmp-\(getpid())"
    let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard file >= 0 else { throw SystemError(code: errno) }
    let written = writeAll(text, to: file)
    close(file)
    guard written == 0, rename(temporary, path) == 0 else {
        let code = written != 0 ? written : errno
        unlink(temporary)
        throw SystemError(code: code)
    }
}

/// Writes every byte of `text` to `descriptor`, retrying after a signal and after a short
/// write; 0, or the `errno` of the write that failed.
private func writeAll(_ text: String, to descriptor: Int32) -> Int32 {
    var bytes = Array(text.utf8)
    while !bytes.isEmpty {
        let count = write(descriptor, bytes, bytes.count)
        if count < 0 {
            if errno == EINTR { continue }
            return errno
        }
        bytes.removeFirst(count)
    }
    return 0
}
