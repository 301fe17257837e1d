import Dispatch

/// Runs blocking work (a socket exchange, a server's start or stop, a child process) on a
/// dispatch thread and waits for it without holding one of the test runner's cooperative
/// threads: on a 2-core machine, tests that block those two threads starve every other test of
/// the run past its time limit. Assertions stay in the calling test, on what this returns.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
