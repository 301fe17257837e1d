import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Conditions evaluated with the semantics of the SQL AutoQuery generates (docs/servicestack.md#values).
@Suite(.timeLimit(.minutes(3))) struct AutoQueryConditionTests {
    let go = DTOObject([("Id", .number(JSONNumber(18))), ("Name", .string("Go")), ("VendorName", .string("Google")),
                        ("ViewCount", .number(JSONNumber(250))), ("Tier", .enumMember("ProgrammingLanguage")), ("Flags", .number(JSONNumber(6))),
                        ("Created", .dateTime(DateTimeValue(parsing: "2015-01-01T00:00:00Z")!)), ("Slug", .null)])

    private func check(_ field: String, _ op: QueryConvention.Operator, _ values: [DTOValue]) -> Bool {
        QueryCondition(field: field, operator: op, values: values).matches(go)
    }

    @Test func equalityIsCaseSensitiveButLikeFormsAreNot() {
        #expect(check("Name", .equal, [.string("Go")]))
        #expect(!check("Name", .equal, [.string("go")]))
        #expect(check("VendorName", .contains, [.string("OOG")]))
        #expect(check("VendorName", .startsWith, [.string("goo")]))
        #expect(check("VendorName", .endsWith, [.string("LE")]))
        #expect(!check("VendorName", .endsWith, [.string("Goo")]))
        #expect(check("VendorName", .like, [.string("g%e")]))
        #expect(check("VendorName", .like, [.string("G_ogle")]))
        #expect(!check("VendorName", .like, [.string("G_gle")]))
    }

    @Test func wildcardsInsideStringConventionValuesStayWildcards() {
        // AutoQuery puts the value into the LIKE pattern as it is.
        let row = DTOObject([("Name", .string("100%_done"))])
        #expect(QueryCondition(field: "Name", operator: .contains, values: [.string("1_0")]).matches(row))
        #expect(QueryCondition(field: "Name", operator: .contains, values: [.string("0__d")]).matches(row))
        #expect(QueryCondition(field: "Name", operator: .startsWith, values: [.string("_0")]).matches(row))
        #expect(!QueryCondition(field: "Name", operator: .startsWith, values: [.string("_x")]).matches(row))
        var scratch: [UInt8] = []
        #expect(PreparedCondition(QueryCondition(field: "Name", operator: .startsWith, values: [.string("_0")])).matches(row, scratch: &scratch))
    }

    /// ASCII text and patterns are matched as bytes; anything else as characters, upper-cased
    /// the Unicode way, with the same answers.
    @Test func patternsOverASCIIAndUnicodeText() {
        var scratch: [UInt8] = []
        func prepared(_ op: QueryConvention.Operator, _ value: String) -> PreparedCondition {
            PreparedCondition(QueryCondition(field: "Name", operator: op, values: [.string(value)]))
        }
        let ascii = DTOObject([("Name", .string("Protocol Buffers"))])
        let unicode = DTOObject([("Name", .string("Straße für Ümlaut"))])
        #expect(prepared(.contains, "col b").matches(ascii, scratch: &scratch))
        #expect(prepared(.endsWith, "FERS").matches(ascii, scratch: &scratch))
        #expect(!prepared(.startsWith, "buffers").matches(ascii, scratch: &scratch))
        #expect(prepared(.contains, "str").matches(unicode, scratch: &scratch))
        #expect(prepared(.contains, "für ü").matches(unicode, scratch: &scratch))
        #expect(prepared(.like, "%ÜMLAUT").matches(unicode, scratch: &scratch))
        #expect(!prepared(.contains, "fur").matches(unicode, scratch: &scratch))
        // The scratch buffer carries nothing from one row to the next.
        #expect(prepared(.like, "PROTOCOL BUFFERS").matches(ascii, scratch: &scratch))
        #expect(!prepared(.like, "PROTOCOL").matches(ascii, scratch: &scratch))
    }

    @Test func numbersDatesAndNulls() {
        #expect(check("ViewCount", .greaterThan, [.number(JSONNumber(100))]))
        #expect(!check("ViewCount", .greaterThan, [.number(JSONNumber(250))]))
        #expect(check("ViewCount", .greaterThanOrEqual, [.number(JSONNumber(250))]))
        #expect(check("ViewCount", .lessThan, [.number(JSONNumber(1000))]))
        #expect(check("ViewCount", .between, [.number(JSONNumber(250)), .number(JSONNumber(300))]))
        #expect(!check("ViewCount", .between, [.number(JSONNumber(251)), .number(JSONNumber(300))]))
        #expect(check("Id", .in, [.number(JSONNumber(1)), .number(JSONNumber(18))]))
        #expect(check("Created", .lessThan, [.dateTime(DateTimeValue(parsing: "2016-01-01")!)]))
        #expect(check("Slug", .isNull, []))
        #expect(!check("Slug", .isNotNull, []))
        // NULL satisfies no comparison, not even <>.
        #expect(!check("Slug", .notEqual, [.string("x")]))
        #expect(!check("Slug", .equal, [.string("x")]))
        #expect(!check("Slug", .contains, [.string("")]))
        #expect(check("Tier", .notEqual, [.enumMember("Server")]))
    }

    @Test func numbersCompareAsNumbersNotText() {
        #expect(check("ViewCount", .greaterThan, [.number(JSONNumber(99))]))
        #expect(check("ViewCount", .lessThan, [.number(JSONNumber(1000))]))
        #expect(SQLOrdering.compare(.number(JSONNumber(literal: "2.5")), .number(JSONNumber(10))) == -1)
    }

    @Test func flagsMasks() {
        #expect(check("Flags", .hasAll, [.number(JSONNumber(2))]))
        #expect(check("Flags", .hasAll, [.number(JSONNumber(6))]))
        #expect(!check("Flags", .hasAll, [.number(JSONNumber(7))]))
        #expect(check("Flags", .hasAny, [.number(JSONNumber(5))]))
        #expect(!check("Flags", .hasAny, [.number(JSONNumber(1))]))
    }

    @Test func nonScalarValuesCompareAsUnknown() {
        let row = DTOObject([("Tags", .list([.string("a")])), ("Any", .json("x"))])
        #expect(!QueryCondition(field: "Tags", operator: .equal, values: [.string("")]).matches(row))
        #expect(!QueryCondition(field: "Any", operator: .equal, values: [.json("y")]).matches(row))
    }

    @Test func likeNeverBlowsUpOnHostilePatterns() {
        let long = String(repeating: "a", count: 2_000)
        #expect(!SQLPattern.like(long, pattern: String(repeating: "%a", count: 200) + "b"))
        #expect(SQLPattern.like(long, pattern: "%" + String(repeating: "a", count: 10) + "%"))
    }
}
