/// Assertions on what a client sent, for XCTest and Swift Testing alike: a failure is reported
/// at the line that called them, with the requests the journal did hold.
extension MockStackControlling {
    /// Expects journaled requests that pass the filters — `count` of them, or at least one —
    /// and returns them.
    ///
    /// ```swift
    /// let sent = try await mock.expectRequests(app: "test", method: "POST", path: "/test/api/Hello", count: 1)
    /// XCTAssertEqual(sent[0].bodyJSON?["name"], "World")
    /// ```
    @discardableResult
    public func expectRequests(
        app: String? = nil, method: String? = nil, path: String? = nil, pathPrefix: String? = nil,
        operation: String? = nil,
        count: Int? = nil, _ message: @autoclosure () -> String = "",
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> [RecordedRequest] {
        let found = try await requests(
            app: app, method: method, path: path, pathPrefix: pathPrefix, operation: operation)
        let matches = count.map { found.count == $0 } ?? !found.isEmpty
        if !matches {
            let wanted = Self.describe(
                app: app, method: method, path: path, pathPrefix: pathPrefix, operation: operation)
            let expected = count.map { "\($0)" } ?? "at least 1"
            let note = message()
            try await CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
                .fail(
                    """
                    expected \(expected) request(s) \(wanted), found \
                    \(found.count)\(note.isEmpty ? "" : " — " + note)\n
                    """
                        + journalSummary())
        }
        return found
    }

    /// Expects no journaled request to pass the filters.
    public func expectNoRequests(
        app: String? = nil, method: String? = nil, path: String? = nil, pathPrefix: String? = nil,
        operation: String? = nil,
        _ message: @autoclosure () -> String = "",
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws {
        try await expectRequests(
            app: app, method: method, path: path, pathPrefix: pathPrefix, operation: operation, count: 0, message(),
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    private static func describe(
        app: String?, method: String?, path: String?, pathPrefix: String?, operation: String?
    ) -> String {
        let parts = [
            app.map { "app \($0)" }, method.map { "method \($0)" }, path.map { "path \($0)" },
            pathPrefix.map { "path \($0)…" },
            operation.map { "operation \($0)" },
        ]
        .compactMap { $0 }
        return parts.isEmpty ? "at all" : "with " + parts.joined(separator: ", ")
    }

    /// The newest journal entries, one line each, to show what did arrive.
    func journalSummary() async throws -> String {
        let recent = try await requests(limit: 10)
        guard !recent.isEmpty else { return "the journal is empty" }
        return "the journal's newest entries:\n"
            + recent.map { entry in
                "  #\(entry.id) \(entry.method) \(entry.path)\(entry.query.map { "?" + $0 } ?? "") → \(entry.status)"
                    + """
                     \
                    [\(entry.app.map { "app " + $0 } ?? "no app")\(entry.operation.map { ", " + $0 } ?? "")\(entry.session.map { ", session " + $0 } ?? "")]
                    """
            }.joined(separator: "\n")
    }
}
