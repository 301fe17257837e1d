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

/// Writes `text` to `path` atomically (a temporary file beside it, then `rename(2)`), so a
/// reader polling for the file never sees half of it. Throws the system's reason on failure.
func writeFileAtomically(_ text: String, to path: String) throws(FileWriteError) {
    let temporary = path + ".tmp-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw FileWriteError() }
    let failure = writeAll(text, to: descriptor) ? nil : FileWriteError()
    close(descriptor)
    if failure == nil, rename(temporary, path) == 0 { return }
    let error = failure ?? FileWriteError()
    unlink(temporary)
    throw error
}

/// A failed file write, described by `strerror` of the `errno` at the time.
struct FileWriteError: Error, CustomStringConvertible {
    let description: String
    init() { description = String(cString: strerror(errno)) }
}

/// Writes all of `text`, retrying short writes and interruptions; false on an error.
private func writeAll(_ text: String, to descriptor: Int32) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
