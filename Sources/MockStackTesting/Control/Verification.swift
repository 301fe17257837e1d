import MockStackJSON
public import MockStackWire

/// WireMock-style verification over the control plane's `requests/find`: one
/// ``RequestPattern`` — the shape of a stub's match — for what a test expects the client sent.
extension MockStackControlling {
    /// The journaled requests a pattern matches, oldest first (`POST requests/find`).
    public func requests(matching pattern: RequestPattern) async throws -> [RecordedRequest] {
        let answer = try await call("POST", "requests/find", body: pattern.json)
        return answer["requests"]?.arrayValue?.map(RecordedRequest.init) ?? []
    }

    /// How many journaled requests a pattern matches (`POST requests/count`).
    public func count(matching pattern: RequestPattern) async throws -> Int {
        try await call("POST", "requests/count", body: pattern.json)["count"]?.intValue ?? 0
    }

    /// Verifies what the client sent, failing the running test — Swift Testing or XCTest — at
    /// the caller's line, with the journal's newest entries, when the count is off.
    ///
    /// ```swift
    /// try await mock.verify(count: .exactly(2), matching: .post("/test/api/Hello"))
    /// try await mock.verify(matching: RequestPattern(headers: [.init("Authorization", .absent)], operation: "Hello"))
    /// ```
    /// - Returns: the requests that matched.
    @discardableResult
    public func verify(
        count: RequestCount = .atLeast(1), matching pattern: RequestPattern, _ message: @autoclosure () -> String = "",
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> [RecordedRequest] {
        let found = try await requests(matching: pattern)
        if !count.admits(found.count) {
            let note = message()
            try await CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
                .fail(
                    """
                    expected \(count) request(s) matching \(pattern.json.jsonText), found \
                    \(found.count)\(note.isEmpty ? "" : " — " + note)\n
                    """
                        + journalSummary())
        }
        return found
    }
}
