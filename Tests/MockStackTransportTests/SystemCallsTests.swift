#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import MockStackTransport
import Testing

/// The system-call wrappers turn `-1` and `errno` into a value (docs/transport.md#system-calls).
struct SystemCallsTests {
    @Test func aCallOnADescriptorThatIsNotOpenFailsWithItsErrno() {
        // Descriptors are small numbers: this one is never open in a test process.
        let closed: Int32 = 1 << 20
        var byte: UInt8 = 0
        let read = withUnsafeMutableBytes(of: &byte) { SystemCalls.read(closed, into: $0.baseAddress, count: 1) }
        let badDescriptor = SystemCallError(code: EBADF)
        #expect(read == .failure(badDescriptor))
        #expect(Self.failure(of: SystemCalls.close(closed)) == badDescriptor)
        #expect(Self.failure(of: SystemCalls.shutdownWrites(closed)) == badDescriptor)
        #expect(Self.failure(of: SystemCalls.setOption(closed, SOL_SOCKET, SO_KEEPALIVE, Int32(1))) == badDescriptor)
        #expect(SystemCalls.unacknowledgedBytes(closed) == .failure(badDescriptor))
        #expect(Self.failure(of: SystemCalls.fileStatus(closed)) == badDescriptor)
    }

    @Test func aCallThatWorksReturnsItsResult() throws {
        // The test process's standard error is open, whatever it is connected to.
        let status = try SystemCalls.fileStatus(2).get()
        #expect(status.st_mode != 0)
        #expect([UInt8]().withUnsafeBytes { SystemCalls.write(2, $0) } == .success(0))
    }

    private static func failure<Value>(of result: Result<Value, SystemCallError>) -> SystemCallError? {
        if case .failure(let error) = result { error } else { nil }
    }

    @Test func tryAgainAndInterruptedAreTransientAndOthersAreNot() {
        #expect(SystemCallError(code: EAGAIN).isTransient)
        #expect(SystemCallError(code: EWOULDBLOCK).isTransient)
        #expect(SystemCallError(code: EINTR).isTransient)
        #expect(!SystemCallError(code: ECONNRESET).isTransient)
        #expect(!SystemCallError(code: EBADF).isTransient)
        #expect(SystemCallError(code: EBADF).reason == "Bad file descriptor")
    }

    @Test func theErrorOfAFailedCallNamesTheCallAndTheReason() {
        let error = TransportError.failed("setsockopt(SO_RCVTIMEO)", SystemCallError(code: EBADF))
        #expect(error.message == "setsockopt(SO_RCVTIMEO) failed: Bad file descriptor")
        #expect(error.call == "setsockopt(SO_RCVTIMEO)")
        #expect(error.errno == EBADF)
    }
}
