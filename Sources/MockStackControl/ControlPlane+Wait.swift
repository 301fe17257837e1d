import MockStackCore
import MockStackWire

/// `POST requests/wait`: a long poll on the journal. The first entry of this scope's journal
/// (after `since`) that a request pattern matches answers `200` with the entry; when there is
/// none yet, the answer is deferred (``Delivery/deferred(_:)``) until one is recorded — on any
/// loop, by any app, stub or none — or `408` when `timeoutMs` pass first. A wait ends early
/// when its scope does (``WaitEnding``): `410` when its session ends, `409` when its journal is
/// reset, `422` when its pattern's regexes run out of steps on an entry.
extension ControlPlane {
    /// The longest wait a request may ask for: five minutes.
    static let maxWaitMilliseconds = 300_000
    /// The wait when `timeoutMs` is not given.
    static let defaultWaitMilliseconds = 5_000

    private enum WaitKey {
        static let pattern = "pattern"
        static let timeoutMs = "timeoutMs"
        static let since = "since"
        static let all = [pattern, timeoutMs, since]
    }

    /// What a wait asks for, read from `{"pattern", "timeoutMs", "since"}`.
    private struct WaitRequest {
        var matcher: RequestMatcher
        var timeoutMilliseconds: Int
        var since: Int
    }

    /// Waits outstanding in this scope, on the journal or on Server Events subscriptions: on the
    /// server every one, sessions' included (what the limit counts); in a session, its own.
    var waitingCount: Int {
        session == nil ? waits.count : scopedJournal.waiterCount + scopedRealtime.waiterCount
    }

    func waitForRequest(_ request: HTTPRequest) -> HTTPResponse {
        let wanted: WaitRequest
        switch Self.readWait(request.body) {
        case .success(let read): wanted = read
        case .failure(let problem): return PlainError.response(400, problem.message)
        }
        let journal = scopedJournal
        guard journal.isEnabled else {
            return PlainError.response(
                409, "The journal is off (--journal-size 0): no request is recorded, so none can be waited for")
        }
        guard waits.take() else {
            return PlainError.response(
                429,
                """
                \(waits.limit) requests are waiting for journal entries already, the most at once; try again when one \
                has ended
                """
            )
        }
        let waits = waits
        let id = waits.nextId()
        let answer = DeferredAnswer(timeoutMilliseconds: wanted.timeoutMilliseconds) { _ in
            journal.stopWaiting(id)
            waits.release()
        }
        let matcher = wanted.matcher
        let ignoringCase = appsIgnoringParameterCase
        let waiter = JournalWaiter(
            id: id, since: wanted.since,
            matches: { [self] entry, budget in
                matcher.matches(subject(of: entry, ignoringCase), anySession: true, within: &budget)
            },
            deliver: { entry in
                answer.complete(with: Self.found(entry))
            },
            end: { response in
                answer.complete(with: response)
            })
        switch journal.firstMatch(orWait: waiter) {
        case .found(let entry):
            waits.release()
            return Self.found(entry)
        case .refused(let response):
            waits.release()
            return response
        case .waiting:
            var timeout = PlainError.response(
                408, "No request matching the pattern was recorded within \(wanted.timeoutMilliseconds) ms")
            timeout.delivery = .deferred(answer)
            return timeout
        }
    }

    /// `200` with the entry, as `requests` lists it but without `"nearest"`: it may be made on
    /// the loop that recorded the entry, and the nearest routes are never worked out while
    /// serving.
    private static func found(_ entry: JournalEntry) -> HTTPResponse {
        .json(200, entry.json)
    }

    private struct WaitProblem: Error {
        var message: String
    }

    private static func readWait(_ body: [UInt8]) -> Result<WaitRequest, WaitProblem> {
        let json: JSONValue
        do {
            json = body.isEmpty ? .object([:]) : try JSONParser.forRequestBodies().parse(body).root
        } catch {
            return .failure(WaitProblem(message: "The body is not JSON: \(error)"))
        }
        guard case .object(let object) = json else {
            return .failure(
                WaitProblem(message: #"Expected an object: {"pattern": {…}, "timeoutMs": 5000, "since": 0}"#))
        }
        for key in object.keys where !WaitKey.all.contains(key) {
            return .failure(
                WaitProblem(message: "\(key): unknown field (expected one of \(WaitKey.all.joined(separator: ", ")))"))
        }
        let matcher: RequestMatcher
        do {
            matcher = try RequestMatcher(
                RequestPattern(json: object[WaitKey.pattern] ?? .object([:]), field: WaitKey.pattern),
                field: WaitKey.pattern)
        } catch let problem as WireProblem {
            return .failure(WaitProblem(message: "Invalid pattern: \(problem.description)"))
        } catch let problem as RequestMatcher.Problem {
            return .failure(WaitProblem(message: "Invalid pattern: \(problem.field): \(problem.message)"))
        } catch {
            return .failure(WaitProblem(message: "Invalid pattern: \(error)"))
        }
        var timeout = defaultWaitMilliseconds
        if let value = object[WaitKey.timeoutMs] {
            guard let number = value.intValue, (0...maxWaitMilliseconds).contains(number) else {
                return .failure(
                    WaitProblem(
                        message:
                            """
                            \(WaitKey.timeoutMs): expected a whole number of milliseconds from 0 to \
                            \(maxWaitMilliseconds), found \(value.jsonText)
                            """
                    ))
            }
            timeout = number
        }
        var since = 0
        if let value = object[WaitKey.since], value != .null {
            guard let number = value.intValue, number >= 0 else {
                return .failure(
                    WaitProblem(
                        message:
                            """
                            \(WaitKey.since): expected a journal entry id (a whole number ≥ 0), found \
                            \(value.jsonText)
                            """
                    ))
            }
            since = number
        }
        return .success(WaitRequest(matcher: matcher, timeoutMilliseconds: timeout, since: since))
    }
}
