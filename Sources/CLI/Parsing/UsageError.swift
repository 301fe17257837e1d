/// A mistake in the command line: one line that names it. The command ends with exit status 2
/// and the message, followed by where the command's help is.
struct UsageError: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// Ends a command with this exit status, whatever it has printed already.
struct ExitStatus: Error, Equatable {
    let code: Int32

    init(_ code: Int32) {
        self.code = code
    }
}
