import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSession` a ``MockStackSession`` hands its test: ephemeral, so its cookies and cache
/// are its own. `URLSession.shared` keeps cookies in a store every test on the machine shares
/// (on Linux a file every debug test bundle reads), so a sign-in cookie from another test, or
/// another run, would be sent into a brand-new session. Made on first use, and shared by every
/// copy of the session value; invalidated when the session ends. When the server serves HTTPS,
/// it trusts the server's CA for that port (``MockStackServerTrust``).
final class SessionURLSession: Sendable {
    private let made = Mutex<URLSession?>(nil)
    private let trust: MockStackServerTrust?

    init(trust: MockStackServerTrust?) { self.trust = trust }

    /// The session's own `URLSession`, made the first time it is asked for.
    var urlSession: URLSession {
        made.withLock { made in
            if let made { return made }
            let configuration = trust?.configured(.ephemeral) ?? .ephemeral
            let session = URLSession(configuration: configuration, delegate: trust, delegateQueue: nil)
            made = session
            return session
        }
    }

    /// Lets the tasks still running finish, then frees the `URLSession`; a later use makes a
    /// new one.
    func invalidate() {
        made.withLock { made in
            made?.finishTasksAndInvalidate()
            made = nil
        }
    }
}
