#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// Unbuffered writes to stdout and stderr: one `write(2)` per call where the pipe allows, so a
/// parent reading the ready line sees it at once and log lines never interleave mid-line.
enum StandardStream {
    case output, error

    func write(_ text: String) {
        // A closed stream leaves nothing useful to do with the text.
        _ = try? (self == .output ? FileDescriptor.standardOutput : .standardError).writeAll(text.utf8)
    }
}

/// Prints a line on stderr.
func printError(_ text: String) {
    StandardStream.error.write(text + "\n")
}

/// Writes `text` to `path` atomically (a temporary file beside it, then `rename(2)`), so a
/// reader polling for the file never sees half of it. Throws the system's reason on failure.
func writeFileAtomically(_ text: String, to path: String) throws(Errno) {
    let temporary = path + ".tmp-\(getpid())"
    do {
        let file = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .truncate],
                                           permissions: [.ownerReadWrite, .groupRead, .otherRead])
        try file.closeAfter { _ = try file.writeAll(text.utf8) }
        guard rename(temporary, path) == 0 else { throw Errno(rawValue: errno) }
    } catch {
        unlink(temporary)
        throw error as? Errno ?? Errno.ioError
    }
}
