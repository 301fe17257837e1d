import CLibevent

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Worker {
    /// Runs `action` on this loop once `descriptor` reads end of file (or fails), dropping
    /// whatever is read from it before. Runs before the loop thread starts.
    /// - Throws: ``TransportError`` when the descriptor cannot be watched: closed, or a file
    ///   or `/dev/null` rather than a pipe, socket or terminal.
    func stopAtEndOfInput(_ descriptor: Int32, _ action: @escaping @Sendable () -> Void) throws(TransportError) {
        // epoll cannot watch a file or /dev/null, and the loop's change list would only find out
        // once it runs: ask first.
        let status: stat
        switch SystemCalls.fileStatus(descriptor) {
        case .success(let found): status = found
        case .failure(let error):
            throw TransportError(
                "cannot watch descriptor \(descriptor) for its end: \(error.reason)", call: "fstat", errno: error.code)
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFIFO || kind == S_IFSOCK || isatty(descriptor) == 1 else {
            throw TransportError(
                """
                cannot watch descriptor \(descriptor) for its end: it must be a pipe, socket or terminal, not a file \
                or /dev/null
                """
            )
        }
        let box = Unmanaged.passRetained(CallbackBox(action)).toOpaque()
        guard
            let event = event_new(
                base, descriptor, Int16(EV_READ | EV_PERSIST),
                { descriptor, _, arg in
                    guard let arg else { return }
                    var scratch = [UInt8](repeating: 0, count: 512)
                    // Readable: one read cannot block. 0 is the end; a failure other than "try again"
                    // means nothing more will come either.
                    switch scratch.withUnsafeMutableBytes({
                        SystemCalls.read(descriptor, into: $0.baseAddress, count: $0.count)
                    }) {
                    case .success(let count) where count > 0: return
                    case .failure(let error) where error.isTransient: return
                    case .success, .failure: break
                    }
                    let box = CallbackBox.from(arg)
                    if let watch = box.event { event_del(watch) }
                    box.action()
                }, box)
        else {
            CallbackBox.release(box)
            throw TransportError("cannot watch descriptor \(descriptor)", call: "event_new")
        }
        CallbackBox.from(box).event = event
        guard event_add(event, nil) == 0 else {
            let error = SystemCallError.current
            event_free(event)
            CallbackBox.release(box)
            throw TransportError(
                "cannot watch descriptor \(descriptor) for its end: \(error.reason)", call: "event_add",
                errno: error.code)
        }
        inputWatch = event
    }
}
