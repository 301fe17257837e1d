import Foundation
import MockStackControl
import MockStackCore
import MockStackWire
import Testing

/// Query parameters and headers that repeat (`hasExactly`, `includes`), and dates compared with
/// a moment (`before`, `after`, `equalToDateTime`), as WireMock matches them.
@Suite struct ValueListAndDatePatternTests {
    let harness = ControlHarness()

    @Test func aRepeatedQueryParameterMatchesExactlyItsValuesInAnyOrder() throws {
        try harness.stub(#"{"path": "/test/api/Hello", "query": {"tag": {"hasExactly": ["a", {"matches": "b[0-9]"}]}}}"#)
        // Near misses are listed while a stub has no hits.
        #expect(harness.send(.get, "/test/api/Hello").status == 200)
        #expect(harness.nearMissReasons == ["query tag is absent, not exactly ('a', matching /b[0-9]/)"])
        #expect(harness.send(.get, "/test/api/Hello?tag=a").status == 200)
        #expect(harness.nearMissReasons == ["query tag is ['a'], not exactly ('a', matching /b[0-9]/)"])
        #expect(harness.send(.get, "/test/api/Hello?tag=a&tag=b1&tag=b2").status == 200, "a value left over")
        #expect(harness.send(.get, "/test/api/Hello?tag=a&tag=a").status == 200, "one value cannot serve two patterns")
        #expect(harness.send(.get, "/test/api/Hello?tag=b1&tag=a").status == 418)
        #expect(harness.send(.get, "/test/api/Hello?tag=a&x=1&tag=b2").status == 418)
    }

    @Test func aValueThatTwoPatternsFitIsHandedToTheOneThatNeedsIt() throws {
        // Greedily, `contains a` would take "ab" first and leave "a2" to 'ab'.
        try harness.stub(#"{"query": {"v": {"hasExactly": [{"contains": "a"}, "ab"]}}}"#)
        #expect(harness.send(.get, "/test/api/Hello?v=ab&v=a2").status == 418)
    }

    @Test func includesNeedsEachPatternMetByOneValue() throws {
        try harness.stub(#"{"headers": {"Accept": {"includes": ["application/json", {"contains": "xml"}]}}}"#)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["Accept": "application/json"]).status == 200)
        #expect(harness.nearMissReasons == ["header Accept is ['application/json'], not including ('application/json', containing 'xml')"])
        let both = HTTPHeaders([.init(name: "Accept", value: "text/xml"), .init(name: "Accept", value: "text/html"), .init(name: "Accept", value: "application/json")])
        #expect(harness.send(.get, "/test/api/Hello", headers: both).status == 418)
    }

    @Test func aLonePatternStillReadsTheLastQueryValue() throws {
        try harness.stub(#"{"query": {"tag": "b"}}"#)
        #expect(harness.send(.get, "/test/api/Hello?tag=a&tag=b").status == 418)
        #expect(harness.send(.get, "/test/api/Hello?tag=b&tag=a").status == 200)
    }

    @Test func valueListsAreForNamesThatRepeat() throws {
        #expect(try harness.refusal(#"{"path": {"hasExactly": ["a"]}}"#)
            == "Invalid stub: match.path.hasExactly: only for a query parameter's or a header's values, which may repeat, and not inside and, or, not")
        #expect(try harness.refusal(#"{"cookies": {"a": {"includes": ["a"]}}}"#)?.hasPrefix("Invalid stub: match.cookies.a.includes: only for") == true)
        #expect(try harness.refusal(#"{"query": {"a": {"not": {"includes": ["a"]}}}}"#)?.hasPrefix("Invalid stub: match.query.a.not.includes: only for") == true)
        #expect(try harness.refusal(#"{"query": {"a": {"hasExactly": []}}}"#) == "Invalid stub: match.query.a.hasExactly: expected a list of patterns, one a value")
        let text = #"{"query": {"tag": {"hasExactly": ["a", {"contains": "b"}]}}, "headers": {"X": {"includes": ["y"]}}}"#
        let pattern = try RequestPattern(json: harness.parse(text), field: "match")
        #expect(pattern.query == [.init("tag", StringPattern(.hasExactly([.equalTo("a"), .contains("b")])))])
        #expect(pattern.json == (try harness.parse(text)))
    }

    @Test func datesCompareWithNowMovedOrAFixedInstant() throws {
        try harness.stub(#"{"headers": {"X-Expires": {"after": "now +1 days"}}}"#, status: 418)
        try harness.stub(#"{"headers": {"If-Modified-Since": {"before": "2020-01-01T00:00:00Z"}}}"#, status: 304)
        try harness.stub(#"{"query": {"since": {"and": [{"after": "now -1 hours"}, {"before": "now"}]}}}"#, status: 202)
        #expect(harness.send(.get, "/test/api/Hello?since=yesterday").status == 200)
        #expect(harness.nearMissReasons.last == "query since is 'yesterday', not all of (a date after now -1 hours, a date before now)")
        let iso = Date.ISO8601FormatStyle()
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Expires": Date().addingTimeInterval(3 * 86_400).formatted(iso)]).status == 418)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Expires": Date().addingTimeInterval(3600).formatted(iso)]).status == 200)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"]).status == 304)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["If-Modified-Since": "Wed, 21 Oct 2025 07:28:00 GMT"]).status == 200)
        let recent = Date().addingTimeInterval(-600).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        #expect(harness.send(.get, "/test/api/Hello?since=" + recent.replacingOccurrences(of: ":", with: "%3A")).status == 202)
        #expect(harness.send(.get, "/test/api/Hello?since=2020-01-01").status == 200)
    }

    @Test func momentsReadAsWireMockWritesThem() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try Moment("now").resolved(now: now) == now)
        #expect(try Moment("now +3 days").resolved(now: now) == now.addingTimeInterval(3 * 86_400))
        #expect(try Moment("now-90 seconds").resolved(now: now) == now.addingTimeInterval(-90))
        #expect(try Moment("now +1 month").resolved(now: Date(timeIntervalSince1970: 0)) == Date(timeIntervalSince1970: 31 * 86_400))
        #expect(try Moment("2026-01-01").resolved(now: now) == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(try Moment("2026-01-01T00:00:00.500Z").resolved(now: now) == Date(timeIntervalSince1970: 1_767_225_600.5))
        #expect(try harness.refusal(#"{"query": {"d": {"before": "tomorrow"}}}"#)
            == "Invalid stub: match.query.d.before: expected now, now +N units, or an ISO 8601 date, found 'tomorrow'")
        #expect(try harness.refusal(#"{"query": {"d": {"after": "now +3 fortnights"}}}"#)
            == "Invalid stub: match.query.d.after: expected now followed by +N or -N and one of seconds, minutes, hours, days, months, years (now +3 days), found 'now +3 fortnights'")
        #expect(try harness.refusal(#"{"query": {"d": {"before": "now", "caseInsensitive": true}}}"#) == "Invalid stub: match.query.d.caseInsensitive: not with before")
        let written = StringPattern(.equalToDateTime(try Moment("now -1 hours")))
        #expect(written.json == ["equalToDateTime": "now -1 hours"] && written.description == "the date now -1 hours")
    }
}
