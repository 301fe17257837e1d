import CLibevent
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one reply sent whole, in the order they go out: the rendered head, the
/// `Date` and `Connection` lines the loop adds, the blank line, the body. Absent parts are empty.
struct WholeReply {
    var head: [UInt8]
    var date: [UInt8]
    var connection: [UInt8]
    var body: [UInt8]

    var count: Int { head.count + date.count + connection.count + RenderedHead.lineEnd.count + body.count }

    /// Writes as much as `socket` takes now in one `writev`, straight from these arrays: the
    /// bytes written, or why none were (`EAGAIN` when the socket's buffer is full).
    func write(to socket: Int32) -> Result<Int, SystemCallError> {
        withPieces { pieces in
            withUnsafeTemporaryAllocation(of: iovec.self, capacity: pieces.count) { vectors in
                var used = 0
                for piece in pieces where !piece.isEmpty {
                    vectors[used] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count)
                    used += 1
                }
                return SystemCalls.write(socket, gathering: UnsafeBufferPointer(rebasing: vectors[..<used]))
            }
        }
    }

    /// Adds everything after the first `offset` bytes to `output`, for the bufferevent to send.
    /// - Returns: the status of the first `evbuffer_add` that failed (libevent could not
    ///   allocate), else 0; what follows it is not added.
    func append(to output: OpaquePointer, after offset: Int) -> Int32 {
        var skip = max(0, offset)
        return withPieces { pieces in
            for piece in pieces {
                if skip >= piece.count {
                    skip -= piece.count
                    continue
                }
                let status = evbuffer_add(output, piece.baseAddress.map { $0 + skip }, piece.count - skip)
                if status != 0 { return status }
                skip = 0
            }
            return 0
        }
    }

    private func withPieces<Result>(_ body: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Result) -> Result {
        head.withUnsafeBytes { head in
            date.withUnsafeBytes { date in
                connection.withUnsafeBytes { connection in
                    RenderedHead.lineEnd.withUnsafeBytes { lineEnd in
                        self.body.withUnsafeBytes { bodyBytes in
                            withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: 5) { pieces in
                                pieces.initializeElement(at: 0, to: head)
                                pieces.initializeElement(at: 1, to: date)
                                pieces.initializeElement(at: 2, to: connection)
                                pieces.initializeElement(at: 3, to: lineEnd)
                                pieces.initializeElement(at: 4, to: bodyBytes)
                                return body(UnsafeBufferPointer(pieces))
                            }
                        }
                    }
                }
            }
        }
    }
}
