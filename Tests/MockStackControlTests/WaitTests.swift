import MockStackControl
import MockStackCore
import Synchronization
import Testing

/// `POST requests/wait` over plain values: what is found at once, what is deferred and which
/// new entry completes it, the timeout's bookkeeping, the limits and the session's scope.
/// (The transport's side — the loop kept free, the wake-up, a client that leaves — is
/// `RequestWaitTests`, over loopback.)
@Suite struct WaitTests {
    let harness = ControlHarness()

    /// A deferred answer taken up as the transport would, with what it delivers kept.
    final class Delivered: Sendable {
        let answer: DeferredAnswer
        let timeout: HTTPResponse
        private let received = Mutex<[HTTPResponse]>([])

        init(_ response: HTTPResponse) throws {
            guard case .deferred(let answer) = response.delivery else {
                throw Unexpected(description: "not deferred: \(response)")
            }
            self.answer = answer
            timeout = response
            if case .completed(let early) = answer.attach({ [self] response in received.withLock { $0.append(response) } }) {
                received.withLock { $0.append(early) }
            }
        }

        var responses: [HTTPResponse] { received.withLock { $0 } }
        var json: JSONValue? { responses.first.flatMap { try? JSONParser().parse($0.body).root } }
    }

    struct Unexpected: Error, CustomStringConvertible { var description: String }

    private func wait(_ body: JSONValue, in scope: String = "") -> HTTPResponse {
        harness.send(.post, scope + "/__mockstack/requests/wait", json: body)
    }

    private func waiting(_ scope: String = "") -> JSONValue? {
        harness.json(.get, scope + "/__mockstack/requests/wait")["waiting"]
    }

    @Test func anEntryAlreadyThereAnswersAtOnceTheOldestFirst() throws {
        harness.send(.get, "/test/api/Hello?n=1")
        harness.send(.get, "/test/api/Goodbye")
        harness.send(.get, "/test/api/Hello?n=2")
        let reply = wait(["pattern": ["path": "/test/api/Hello"], "timeoutMs": 1000])
        #expect(reply.status == 200 && reply.delivery == .immediate)
        let entry = try JSONParser().parse(reply.body).root
        #expect(entry["id"] == 1 && entry["query"] == "n=1" && entry["app"] == "test" && entry["operation"] == "Hello")
        // `since` skips what came before.
        let later = try JSONParser().parse(wait(["pattern": ["path": "/test/api/Hello"], "since": 1]).body).root
        #expect(later["id"] == 3 && later["query"] == "n=2")
        #expect(waiting() == 0, "nothing waits when it was found")
    }

    @Test func aWaitIsDeferredUntilAMatchingEntryIsRecorded() throws {
        harness.send(.get, "/test/api/Hello")
        let reply = wait(["pattern": ["method": "POST", "path": "/test/api/Hello"], "timeoutMs": 60000])
        // What is sent if the time passes first, in the control plane's error format.
        #expect(reply.status == 408)
        #expect(try JSONParser().parse(reply.body).root
            == ["status": 408, "error": "Request Timeout", "message": "No request matching the pattern was recorded within 60000 ms"])
        let delivered = try Delivered(reply)
        #expect(delivered.answer.timeoutMilliseconds == 60000)
        #expect(waiting() == 1)
        harness.send(.get, "/test/api/Hello")
        harness.send(.post, "/test/api/Goodbye")
        #expect(delivered.responses.isEmpty, "neither matches")
        harness.send(.post, "/test/api/Hello", json: ["name": "Ann"])
        #expect(delivered.responses.map(\.status) == [200])
        #expect(delivered.json?["id"] == 4 && delivered.json?["method"] == "POST" && delivered.json?["body"]?["text"] == #"{"name":"Ann"}"#)
        #expect(waiting() == 0, "the waiter is gone once answered")
        harness.send(.post, "/test/api/Hello")
        #expect(delivered.responses.count == 1, "answered once")
    }

    @Test func everyWaiterAnEntryMatchesGetsItEachTheFirstItWants() throws {
        let hello = try Delivered(wait(["pattern": ["path": "/test/api/Hello"]]))
        harness.send(.get, "/test/api/Goodbye")
        let anyTest = try Delivered(wait(["pattern": ["pathPrefix": "/test/"], "since": 1]))
        #expect(hello.responses.isEmpty && anyTest.responses.isEmpty && waiting() == 2)
        harness.send(.get, "/test/api/Hello?n=2")
        harness.send(.get, "/test/api/Hello?n=3")
        #expect(hello.json?["id"] == 2 && anyTest.json?["id"] == 2)
        #expect(hello.responses.count == 1 && anyTest.responses.count == 1 && waiting() == 0)
    }

    @Test func unmatchedRequestsAndStubbedAnswersCompleteWaitsToo() throws {
        let unmatched = try Delivered(wait(["pattern": ["path": "/nowhere"]]))
        let stubbed = try Delivered(wait(["pattern": ["path": "/test/api/Stubbed"]]))
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["path": "/test/api/Stubbed"], "answer": ["status": 202]]).status == 201)
        #expect(harness.send(.get, "/nowhere").status == 404)
        #expect(harness.send(.get, "/test/api/Stubbed").status == 202)
        #expect(unmatched.json?["app"] == .null && unmatched.json?["unmatched"] == true)
        #expect(stubbed.json?["stub"] == "stub-1" && stubbed.json?["status"] == 202)
    }

    @Test func anEntryRecordedBeforeTheTransportTakesTheAnswerUpIsDeliveredWhenItDoes() throws {
        let reply = wait(["pattern": ["path": "/test/api/Hello"]])
        guard case .deferred(let answer) = reply.delivery else { throw Unexpected(description: "not deferred") }
        // Another loop records the entry between the responder's return and the transport's attach.
        harness.send(.get, "/test/api/Hello")
        #expect(answer.hasEnded)
        guard case .completed(let early) = answer.attach({ _ in Issue.record("woken after an early completion") }) else {
            throw Unexpected(description: "not completed early")
        }
        #expect(early.status == 200)
        #expect(waiting() == 0)
    }

    @Test func aTimedOutOrDroppedWaitLeavesNoWaiterAndTakesNoEntry() throws {
        let timedOut = try Delivered(wait(["pattern": ["path": "/test/api/Hello"], "timeoutMs": 10]))
        let dropped = try Delivered(wait(["pattern": ["path": "/test/api/Hello"]]))
        #expect(waiting() == 2)
        #expect(timedOut.answer.end(.timedOut))
        #expect(dropped.answer.end(.dropped))
        #expect(waiting() == 0)
        harness.send(.get, "/test/api/Hello")
        #expect(timedOut.responses.isEmpty && dropped.responses.isEmpty)
        #expect(!timedOut.answer.end(.timedOut), "an ending happens once")
        #expect(!timedOut.answer.complete(with: .json(200, [:])))
    }

    @Test func aCompletionThatBeatsTheTimerWins() throws {
        let delivered = try Delivered(wait(["pattern": ["path": "/test/api/Hello"]]))
        harness.send(.get, "/test/api/Hello")
        #expect(!delivered.answer.end(.timedOut), "the timer fires after the completion: the completion's answer goes out")
        #expect(delivered.responses.map(\.status) == [200])
    }

    @Test func aSessionWaitSeesOnlyItsOwnEntriesAndTheServerSeesEveryones() throws {
        let inSession = try Delivered(wait(["pattern": ["path": "/test/api/Hello"]], in: "/__session/s1"))
        let onServer = try Delivered(wait(["pattern": ["path": "/test/api/Hello", "session": "s2"]]))
        harness.send(.get, "/test/api/Hello")
        harness.send(.get, "/__session/s2/test/api/Hello")
        #expect(inSession.responses.isEmpty)
        #expect(onServer.json?["session"] == "s2" && onServer.json?["id"] == 2)
        #expect(waiting("/__session/s1") == 1 && waiting() == 1)
        harness.send(.get, "/__session/s1/test/api/Hello")
        // The session's journal numbers its own entries.
        #expect(inSession.json?["session"] == "s1" && inSession.json?["id"] == 1)
        #expect(waiting("/__session/s1") == 0 && waiting() == 0)
    }

    @Test func pastTheLimitA429() throws {
        let harness = ControlHarness(waits: WaitBudget(limit: 2))
        let first = try Delivered(harness.send(.post, "/__mockstack/requests/wait", json: [:]))
        _ = try Delivered(harness.send(.post, "/__session/s1/__mockstack/requests/wait", json: [:]))
        #expect(harness.json(.post, "/__mockstack/requests/wait", [:])
            == ["status": 429, "error": "Too Many Requests",
                "message": "2 requests are waiting for journal entries already, the most at once; try again when one has ended"])
        #expect(harness.json(.get, "/__mockstack/requests/wait") == ["waiting": 2, "limit": 2])
        #expect(first.answer.end(.dropped))
        #expect(harness.send(.post, "/__mockstack/requests/wait", json: [:]).status == 408, "a place is free again")
    }

    @Test func badBodiesAre400sNamingTheField() {
        func message(_ body: JSONValue) -> JSONValue? { harness.json(.post, "/__mockstack/requests/wait", body)["message"] }
        #expect(message(["timeoutMs": -1]) == "timeoutMs: expected a whole number of milliseconds from 0 to 300000, found -1")
        #expect(message(["timeoutMs": 300_001]) == "timeoutMs: expected a whole number of milliseconds from 0 to 300000, found 300001")
        #expect(message(["timeoutMs": "5s"]) == #"timeoutMs: expected a whole number of milliseconds from 0 to 300000, found "5s""#)
        #expect(message(["since": -3]) == "since: expected a journal entry id (a whole number ≥ 0), found -3")
        #expect(message(["pattern": ["path": ["matches": "(a"]]]) == "Invalid pattern: pattern.path: missing ) for '(' at offset 0")
        #expect(message(["pattern": ["colour": "red"]])
            == "Invalid pattern: pattern.colour: unknown field (expected one of and, app, basicAuth, body, bodyPointers, cookies, headers, method, not, operation, or, parts, path, pathPrefix, pathRegex, query, session)")
        #expect(message(["timeout": 5]) == "timeout: unknown field (expected one of pattern, timeoutMs, since)")
        #expect(message([1, 2]) == #"Expected an object: {"pattern": {…}, "timeoutMs": 5000, "since": 0}"#)
        let notJSON = harness.root.respond(to: HTTPRequest(method: .post, target: "/__mockstack/requests/wait", body: Array("{".utf8)))
        #expect(notJSON.status == 400)
        #expect(harness.send(.put, "/__mockstack/requests/wait").status == 405)
        #expect(harness.json(.get, "/__mockstack/requests/wait") == ["waiting": 0, "limit": 256])
    }

    @Test func withTheJournalOffThereIsNothingToWaitFor() {
        let harness = ControlHarness(journalSize: 0)
        #expect(harness.json(.post, "/__mockstack/requests/wait", [:])
            == ["status": 409, "error": "Conflict", "message": "The journal is off (--journal-size 0): no request is recorded, so none can be waited for"])
    }
}
