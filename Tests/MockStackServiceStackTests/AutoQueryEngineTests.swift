import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The query engine: terms, ordering, paging, fields, totals and aggregates (docs/servicestack.md#autoquery).
@Suite struct AutoQueryEngineTests {
    static func row(_ id: Int, _ name: String, _ vendor: String?, _ views: Int?) -> DTOObject {
        DTOObject([("Id", .number(JSONNumber(id))), ("Name", .string(name)), ("VendorName", vendor.map { .string($0) } ?? .null),
                   ("ViewCount", views.map { .number(JSONNumber($0)) } ?? .null)])
    }

    static let rows = [
        row(1, "ServiceStack", "ServiceStack", 300), row(7, "AngularJS", "Google", 900), row(18, "Go", "Google", 800),
        row(77, "Protocol Buffers", "Google", 700), row(3, "Redis", "Redis Labs", nil), row(5, "Amazon S3", "Amazon", 500),
        row(6, "Amazon EC2", "Amazon", 600), row(4, "Linux", nil, 100),
    ]
    let engine = AutoQueryEngine(rows: rows, fields: ["Id", "Name", "VendorName", "ViewCount"], maxLimit: 5, includeTotal: true)

    private func vendor(_ name: String, _ term: AutoQuery.Term = .and) -> (condition: QueryCondition, term: AutoQuery.Term) {
        (QueryCondition(field: "VendorName", operator: .equal, values: [.string(name)]), term)
    }

    private func ids(_ result: AutoQueryResult) -> [Int] { result.rows.compactMap { $0["Id"].intValue } }

    @Test func andOrAndEnsureTerms() throws {
        let google = try engine.run(AutoQuery(conditions: [vendor("Google")]))
        #expect(ids(google) == [7, 18, 77])
        #expect(google.total == 3)
        let either = try engine.run(AutoQuery(conditions: [vendor("Google", .or), vendor("Amazon", .or)], defaultTerm: .or))
        #expect(ids(either) == [5, 6, 7, 18, 77])
        let viewsOver = (QueryCondition(field: "ViewCount", operator: .greaterThan, values: [.number(JSONNumber(750))]), AutoQuery.Term.ensure)
        let ensured = try engine.run(AutoQuery(conditions: [vendor("Google", .or), vendor("Amazon", .or), viewsOver], defaultTerm: .or))
        #expect(ids(ensured) == [7, 18])
    }

    @Test func anOrQueryWithoutConditionsIsEmptyAndAnAndQueryIsEverything() throws {
        let none = try engine.run(AutoQuery(defaultTerm: .or))
        #expect(none.rows.isEmpty)
        #expect(none.total == 0)
        let all = try engine.run(AutoQuery())
        #expect(all.total == 8)
        #expect(ids(all) == [1, 3, 4, 5, 6], "take defaults to MaxLimit, in primary-key order")
    }

    @Test func orderingPagingAndClamping() throws {
        let byViews = try engine.run(AutoQuery(take: 3, orderByDesc: ["ViewCount"]))
        #expect(ids(byViews) == [7, 18, 77])
        let mixed = try engine.run(AutoQuery(orderBy: ["VendorName", "-ViewCount"]))
        // NULL first ascending (SQLite), then Amazon by views descending, then Google…
        #expect(ids(mixed) == [4, 6, 5, 7, 18])
        let page = try engine.run(AutoQuery(skip: 6, take: 100, orderBy: ["Id"]))
        #expect(page.offset == 6)
        #expect(ids(page) == [18, 77])
        #expect(try engine.run(AutoQuery(take: 100)).rows.count == 5)
        #expect(throws: ServiceError(.argument, "Could not find field Nope")) { try engine.run(AutoQuery(orderBy: ["Nope"])) }
        let random = try engine.run(AutoQuery(take: 100, orderBy: ["Random"], randomSeed: 42))
        #expect(ids(random) == ids(try engine.run(AutoQuery(take: 100, orderBy: ["random"], randomSeed: 42))))
        #expect(ids(random) != [1, 3, 4, 5, 6], "a seed shuffles")
        #expect(Set((0..<8).map { seed in ids(try! engine.run(AutoQuery(orderBy: ["Random"], randomSeed: UInt64(seed)))) }).count > 1)
        #expect(ids(try engine.run(AutoQuery(take: 3, orderBy: [], orderByDesc: ["ViewCount"]))) == [7, 18, 77], "an empty orderBy does not win")
    }

    /// A page picked from the matches (a bounded heap) is the same slice a full sort gives,
    /// for every skip and take, on keys with ties and NULLs.
    @Test func pagesAreSlicesOfTheFullOrder() throws {
        let rows = (0..<300).map { index in
            Self.row(1000 - index, "Tech \(index % 17)", index % 5 == 0 ? nil : "Vendor \(index % 4)", index % 7 == 0 ? nil : (index * 37) % 50)
        }
        let big = AutoQueryEngine(rows: rows, fields: ["Id", "Name", "VendorName", "ViewCount"], maxLimit: 1000, includeTotal: false)
        for order in [["-ViewCount"], ["VendorName", "-Name"], ["Name"]] {
            let everything = ids(try big.run(AutoQuery(orderBy: order)))
            #expect(everything.count == 300)
            for (skip, take) in [(0, 1), (0, 10), (3, 7), (40, 25), (290, 20), (0, 299)] {
                #expect(ids(try big.run(AutoQuery(skip: skip, take: take, orderBy: order))) == Array(everything.dropFirst(skip).prefix(take)), "\(order) \(skip) \(take)")
            }
        }
    }

    /// The engine matches `LIKE` over its columns (ASCII bytes where it can) exactly as a
    /// condition does over a row (code points, upper-cased the Unicode way).
    @Test func likeOverColumnsAgreesWithLikeOverRows() throws {
        let names = ["Protocol Buffers", "Straße für Ümlaut", "a\r\nb", "ab", "a_b", "100%", "ÅB", "", "İstanbul"]
        let rows = names.enumerated().map { Self.row($0.offset + 1, $0.element, nil, nil) } + [Self.row(99, "x", nil, nil)]
        var nullName = rows[rows.count - 1]
        nullName["Name"] = .null
        let engine = AutoQueryEngine(rows: Array(rows.dropLast()) + [nullName], fields: ["Id", "Name", "VendorName", "ViewCount"],
                                     maxLimit: 100, includeTotal: false)
        let patterns: [(QueryConvention.Operator, String)] = [(.like, "a__b"), (.like, "a_b"), (.contains, "ü"), (.startsWith, "STR"),
                                                              (.endsWith, "fers"), (.like, "%\\%"), (.contains, "%"), (.like, "åb"),
                                                              (.like, ""), (.contains, "stan")]
        for (op, value) in patterns {
            let condition = QueryCondition(field: "Name", operator: op, values: [.string(value)])
            let expected = (Array(rows.dropLast()) + [nullName]).filter(condition.matches).compactMap { $0["Id"].intValue }
            #expect(ids(try engine.run(AutoQuery(conditions: [(condition, .and)], orderBy: ["Id"]))) == expected, "\(op) \(value)")
        }
        // `_` is one code point, so a CRLF is two.
        let crlf = QueryCondition(field: "Name", operator: .like, values: [.string("a__b")])
        #expect(ids(try engine.run(AutoQuery(conditions: [(crlf, .and)]))) == [3])
    }

    @Test func extremePagesAndAMissingPrimaryKeyAreHarmless() throws {
        let far = try engine.run(AutoQuery(skip: Int.max, take: Int.max))
        #expect(far.rows.isEmpty && far.total == 8)
        #expect(far.offset == Int(Int32.max))
        let keyless = AutoQueryEngine(rows: Self.rows, fields: ["Name"], maxLimit: 3, includeTotal: false)
        #expect(try keyless.run(AutoQuery(skip: 1, take: 2, orderBy: ["-Name"])).rows.map { $0["Name"] } == [.string("Redis"), .string("Protocol Buffers")])
        let missing = QueryCondition(field: "Colour", operator: .equal, values: [.string("red")])
        #expect(try keyless.run(AutoQuery(conditions: [(missing, .and)])).rows.isEmpty)
    }

    @Test func fieldSelection() throws {
        let result = try engine.run(AutoQuery(conditions: [vendor("Google")], fields: "name, ID,Name,Unknown"))
        #expect(result.rows.first == DTOObject([("Name", .string("AngularJS")), ("Id", .number(JSONNumber(7)))]))
        let vendors = try engine.run(AutoQuery(conditions: [vendor("Google")], fields: "DISTINCT VendorName"))
        #expect(vendors.rows == [DTOObject([("VendorName", .string("Google"))])])
        // DISTINCT applies before paging: two pages of distinct vendors, not the vendors of a page.
        let firstPage = try engine.run(AutoQuery(take: 2, orderBy: ["VendorName"], fields: "DISTINCT VendorName"))
        let secondPage = try engine.run(AutoQuery(skip: 2, take: 2, orderBy: ["VendorName"], fields: "DISTINCT VendorName"))
        #expect((firstPage.rows + secondPage.rows).map { $0["VendorName"] } == [.null, .string("Amazon"), .string("Google"), .string("Redis Labs")])
    }

    @Test func totalsAndAggregates() throws {
        let counting = AutoQueryEngine(rows: Self.rows, fields: engine.fields, maxLimit: 5, includeTotal: false)
        #expect(try counting.run(AutoQuery(conditions: [vendor("Google")])).total == 0)
        #expect(try counting.run(AutoQuery(conditions: [vendor("Google")], include: ["Total"])).total == 3)
        let meta = try counting.run(AutoQuery(conditions: [vendor("Google")], include: ["COUNT(*)", "MAX(ViewCount) Most", "AVG(ViewCount)", "min(Name)", "COUNT(*) Total"]))
        #expect(meta.total == 3)
        // `COUNT(*)` asked for by that name (not as `Total`) keeps its entry, as AutoQuery's does.
        #expect(meta.meta == [DTOMapEntry(key: "COUNT(*)", value: .string("3")), DTOMapEntry(key: "Most", value: .string("900")),
                              DTOMapEntry(key: "AVG(ViewCount)", value: .string("800")),
                              DTOMapEntry(key: "min(Name)", value: .string("AngularJS")), DTOMapEntry(key: "Total", value: .string("3"))])
        // Without it, an empty meta is left out wherever the total is computed.
        #expect(try counting.run(AutoQuery(conditions: [vendor("Google")], include: ["Total"])).meta == nil)
        #expect(try counting.run(AutoQuery(conditions: [vendor("Google")])).meta == [])
    }
}
