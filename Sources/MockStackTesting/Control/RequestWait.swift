import MockStackJSON
public import MockStackWire

/// Waiting for a request instead of sleeping (`POST requests/wait`): the control plane answers
/// as soon as the journal holds a request the pattern matches, or says so when the time is up.
///
/// ```swift
/// Task { try await client.post(Hello(name: "World")) }      // the client sends in the background
/// let hello = try await session.waitForRequest(matching: .post("/test/api/Hello"))
/// #expect(hello?.bodyJSON?["name"] == "World")
/// ```
extension MockStackControlling {
    /// The first journaled request the pattern matches (after `since`, when given): one already
    /// in the journal, or the next one recorded within `timeout`. Throws ``RequestWaitTimeout``
    /// when none is.
    /// - Parameters:
    ///   - timeout: how long to wait, up to 5 minutes (longer is cut to that);
    ///   - since: only entries with a greater id (``RecordedRequest/id``): requests recorded
    ///     after that one.
    public func nextRequest(
        matching pattern: RequestPattern, timeout: Duration = .seconds(5), since: Int? = nil
    ) async throws -> RecordedRequest {
        let milliseconds = Self.waitMilliseconds(timeout)
        var body: JSONObject = ["pattern": pattern.json, "timeoutMs": .number(JSONNumber(milliseconds))]
        if let since { body["since"] = .number(JSONNumber(since)) }
        do {
            // The server answers within the timeout; the client's own allows for a busy machine.
            return RecordedRequest(
                try await call("POST", "requests/wait", body: .object(body), timeout: Double(milliseconds) / 1000 + 30))
        } catch let error as MockStackControlError where error.status == 408 {
            throw RequestWaitTimeout(pattern: pattern, milliseconds: milliseconds)
        }
    }

    /// Waits for a request the pattern matches — one already journaled (after `since`, when
    /// given), or the next one recorded within `timeout` — and returns it. When none comes, the
    /// running test fails — Swift Testing or XCTest — at the caller's line, with the journal's
    /// newest entries, and the answer is nil.
    @discardableResult
    public func waitForRequest(
        matching pattern: RequestPattern, timeout: Duration = .seconds(5), since: Int? = nil,
        _ message: @autoclosure () -> String = "",
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> RecordedRequest? {
        do {
            return try await nextRequest(matching: pattern, timeout: timeout, since: since)
        } catch let timedOut as RequestWaitTimeout {
            let note = message()
            try await CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
                .fail("\(timedOut.description)\(note.isEmpty ? "" : " — " + note)\n" + journalSummary())
            return nil
        }
    }

    /// `timeout` in whole milliseconds, within what the server takes (0 to 5 minutes).
    static func waitMilliseconds(_ timeout: Duration) -> Int {
        let (seconds, attoseconds) = timeout.components
        guard seconds >= 0 else { return 0 }
        guard seconds < RequestWaitTimeout.longestMilliseconds / 1000 else {
            return RequestWaitTimeout.longestMilliseconds
        }
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

/// No journaled request matched the pattern within the wait
/// (``MockStackControlling/nextRequest(matching:timeout:since:)``).
public struct RequestWaitTimeout: Error, Sendable, CustomStringConvertible {
    /// The longest wait the server takes: 5 minutes.
    public static let longestMilliseconds = 300_000

    /// The pattern waited for.
    public var pattern: RequestPattern
    /// How long the server waited.
    public var milliseconds: Int

    /// The pattern and the wait, for test failures.
    public var description: String {
        "no request matching \(pattern.json.jsonText) was recorded within \(milliseconds) ms"
    }
}
