public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import MockStack
import MockStackCore

/// A mockstack that something else started — a CI service container, `docker run`,
/// `make serve` — reached at its URL. The same calls work on it as on a spawned server;
/// ``stop()`` leaves it running, since it is not this process's to stop. It is shared by every
/// test that attaches, so tests reset it, or each take a session of it.
public final class AttachedMockStack: MockStackHandle {
    public let ready: ReadyEvent

    private init(ready: ReadyEvent) {
        self.ready = ready
    }

    /// Waits until the server at `url` answers `GET /__mockstack/apps` (a container may still be
    /// starting), then attaches to it. It blocks the calling thread while it waits, as spawning
    /// does; call it from setUp, not from many concurrent tasks.
    /// - Throws: ``MockStackLaunchError`` when it has not answered within `timeout`.
    public static func attach(to url: URL, timeout: Duration = .seconds(30)) throws -> AttachedMockStack {
        guard url.scheme == "http", let host = url.host, url.path.isEmpty || url.path == "/" else {
            throw MockStackLaunchError("cannot attach to \(url): give the server's root, http://host:port")
        }
        let deadline = ContinuousClock.now + timeout
        var lastProblem = "no answer"
        repeat {
            switch fetch(url.appendingPathComponent("__mockstack/apps")) {
            case .success(let json):
                let apps = (json["apps"]?.arrayValue ?? []).compactMap { app -> (name: String, mount: String)? in
                    guard let name = app["name"]?.stringValue, let mount = app["mount"]?.stringValue else { return nil }
                    return (name: name, mount: mount)
                }
                return AttachedMockStack(ready: ReadyEvent(host: host, port: url.port ?? 80, apps: apps, pid: 0, version: ""))
            case .failure(let problem):
                lastProblem = problem.message
            }
            Thread.sleep(forTimeInterval: 0.2)
        } while ContinuousClock.now < deadline
        throw MockStackLaunchError("mockstack at \(url) did not answer within \(timeout): \(lastProblem)")
    }

    public func stop() {}

    private static func fetch(_ url: URL) -> Result<JSONValue, MockStackLaunchError> {
        let answer = BlockingAnswer()
        var request = URLRequest(url: url)
        request.timeoutInterval = 2          // one probe; attach(to:timeout:) keeps trying
        ControlSession.shared.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if let data, status == 200, let json = try? JSONParser().parse(Array(data)).root {
                answer.set(.success(json))
            } else {
                answer.set(.failure(MockStackLaunchError(error.map { "\($0.localizedDescription)" } ?? "status \(status)")))
            }
        }.resume()
        return answer.wait()
    }
}

/// One answer handed from URLSession's queue to the thread waiting for it.
private final class BlockingAnswer: @unchecked Sendable {
    // @unchecked: `result` is written once before `done` is signalled and read only after.
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<JSONValue, MockStackLaunchError> = .failure(MockStackLaunchError("no answer"))

    func set(_ value: Result<JSONValue, MockStackLaunchError>) {
        result = value
        done.signal()
    }

    func wait() -> Result<JSONValue, MockStackLaunchError> {
        done.wait()
        return result
    }
}
