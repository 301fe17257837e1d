public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mockstack that something else started — a CI service container, `docker run`,
/// `make serve` — reached at its URL. The same calls work on it as on a spawned server;
/// ``stop()`` leaves it running, since it is not this process's to stop. It is shared by every
/// test that attaches, so tests reset it, or each take a session of it.
public final class AttachedMockStack: MockStackHandle {
    /// The server's ready line, rebuilt from what `GET /__mockstack/apps` answered (no pid or version).
    public let ready: ReadyEvent
    /// The token the server's control plane wants, if any; every control call sends it.
    public let adminToken: String?

    private init(ready: ReadyEvent, adminToken: String?) {
        self.ready = ready
        self.adminToken = adminToken
    }

    /// Waits until the server at `url` answers `GET /__mockstack/apps` (a container may still be
    /// starting), then attaches to it. It blocks the calling thread while it waits, as spawning
    /// does; call it from setUp, not from many concurrent tasks.
    /// - Parameters:
    ///   - adminToken: the token its control plane wants when it is bound off loopback (a
    ///     container); nil: `MOCKSTACK_ADMIN_TOKEN`, if set.
    ///   - apps: apps the tests need; the server must serve each.
    /// - Throws: ``MockStackLaunchError`` when it has not answered within `timeout`, or at once
    ///   when it refuses the token or lacks an app.
    public static func attach(
        to url: URL, adminToken: String? = nil, apps: [String]? = nil, timeout: Duration = .seconds(30)
    ) throws -> AttachedMockStack {
        let adminToken = adminToken ?? ControlSession.environmentToken
        guard url.scheme == "http", let host = url.host, url.path.isEmpty || url.path == "/" else {
            throw MockStackLaunchError("cannot attach to \(url): give the server's root, http://host:port")
        }
        let deadline = ContinuousClock.now + timeout
        var lastProblem = "no answer"
        let listing = url.appendingPathComponent("__mockstack/apps")
        repeat {
            switch probe(listing, token: adminToken) {
            case .answered(let json):
                let listed = (json["apps"]?.arrayValue ?? []).compactMap { app -> (name: String, mount: String)? in
                    guard let name = app["name"]?.stringValue, let mount = app["mount"]?.stringValue else { return nil }
                    return (name: name, mount: mount)
                }
                let missing = (apps ?? []).filter { app in !listed.contains { $0.name == app } }
                guard missing.isEmpty else {
                    throw MockStackLaunchError(
                        """
                        mockstack at \(url) does not serve \(missing.joined(separator: ", ")) (it serves \
                        \(listed.map(\.name).joined(separator: ", "))): start it with those apps (--apps, \
                        MOCKSTACK_APPS)
                        """
                    )
                }
                // Whether the token is needed, not only given: the same call without it.
                let required = adminToken != nil && probe(listing, token: nil) == .refused
                return AttachedMockStack(
                    ready: ReadyEvent(
                        host: host, port: url.port ?? 80, apps: listed,
                        notLoaded: json["notLoaded"]?.arrayValue?.compactMap(\.stringValue) ?? [], pid: 0, version: "",
                        adminTokenRequired: required),
                    adminToken: adminToken)
            case .refused:
                throw MockStackLaunchError(
                    """
                    mockstack at \(url) wants its admin token \
                    (\(adminToken == nil ? "none was given" : "the one given is wrong")): set MOCKSTACK_ADMIN_TOKEN \
                    to the server's
                    """
                )
            case .failed(let problem):
                lastProblem = problem
            }
            Thread.sleep(forTimeInterval: 0.2)
        } while ContinuousClock.now < deadline
        throw MockStackLaunchError("mockstack at \(url) did not answer within \(timeout): \(lastProblem)")
    }

    /// Does nothing: the server is not this process's to stop.
    public func stop() {}

    /// What one `GET /__mockstack/apps` got.
    enum Probe: Equatable {
        case answered(JSONValue)
        /// 401: the token is missing or wrong.
        case refused
        case failed(String)
    }

    private static func probe(_ url: URL, token: String?) -> Probe {
        let answer = BlockingAnswer()
        var request = ControlSession.request(url, token: token)
        request.timeoutInterval = 2  // one probe; attach(to:timeout:) keeps trying
        ControlSession.shared.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if let data, status == 200, let json = try? JSONParser().parse(Array(data)).root {
                answer.set(.answered(json))
            } else if status == 401 {
                answer.set(.refused)
            } else {
                answer.set(.failed(error.map { "\($0.localizedDescription)" } ?? "status \(status)"))
            }
        }.resume()
        return answer.wait()
    }
}

/// One answer handed from URLSession's queue to the thread waiting for it.
private final class BlockingAnswer: @unchecked Sendable {
    // @unchecked: `result` is written once before `done` is signalled and read only after.
    private let done = DispatchSemaphore(value: 0)
    private var result: AttachedMockStack.Probe = .failed("no answer")

    func set(_ value: AttachedMockStack.Probe) {
        result = value
        done.signal()
    }

    func wait() -> AttachedMockStack.Probe {
        done.wait()
        return result
    }
}
