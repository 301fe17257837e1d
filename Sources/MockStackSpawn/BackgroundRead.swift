import Foundation

/// A pipe read to its end on a thread of its own, so that the caller can read another pipe of
/// the same child meanwhile.
final class BackgroundRead: @unchecked Sendable {
    // @unchecked: `bytes` is written once by the reading thread before `done` is signalled.
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: ChildPipe) {
        Thread.detachNewThread { [self] in
            bytes = pipe.readToEnd()
            done.signal()
        }
    }

    /// Everything the pipe carried, once it has ended.
    func result() -> [UInt8] {
        done.wait()
        return bytes
    }
}
