import CLibevent

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide libevent set-up, done once before the first event base exists.
enum LibeventRuntime {
    /// Touch to initialise. Swift runs a global's initialiser exactly once, thread-safely.
    static let ready: Void = {
        // Without this a cross-thread event_base_loopexit races and does not wake an idle loop:
        // libevent locks a base and wakes its loop from another thread only once told to use
        // pthreads. Never inside an assert: -O would drop the call.
        let status = evthread_use_pthreads()
        if status != 0 { fatalError("evthread_use_pthreads failed (\(status))") }
        // libevent writes without MSG_NOSIGNAL; a client leaving mid-write must not kill us.
        signal(SIGPIPE, SIG_IGN)
    }()
}
