import Foundation
import GRDB
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The AutoQuery engine against SQLite: the same generated data in both, a few thousand
/// generated AutoQuery requests run through the engine (parameter names and text values, as a
/// client sends them) and as the SQL AutoQuery would write for them, and the same ids in the
/// same order expected from each.
@Suite struct AutoQueryDifferentialTests {
    static let rowCount = 400
    static let queryCount = 3_000
    static let maxLimit = 100
    static let tiers = ["ProgrammingLanguage", "Client", "Http", "Server", "Data", "SoftwareInfrastructure", "OperatingSystem", "HardwareInfrastructure", "ThirdPartyServices"]
    static let words = ["Redis", "MySQL", "Go", "Swift", "Nginx", "Linux", "Hadoop", "node", "Ruby", "Rails", "Java", "Python", "Amazon S3", "mongo", "Kafka", "Vue", "Flutter", "Dart", "Spring", "Django", "react", "Angular"]
    static let vendors = ["Google", "Amazon", "Microsoft", "Apple", "Oracle", "Redis Labs", "ServiceStack", "Meta", "google", "AMAZON"]

    struct Row {
        var id: Int
        var name: String
        var vendor: String?
        var tier: String
        var views: Int?
        var created: String
    }

    struct Generated {
        var parameters: [(String, String)]
        var sql: [String]
        var arguments: [(any DatabaseValueConvertible)?]
    }

    @Test func engineAndSQLiteAgreeOnGeneratedQueries() throws {
        var random = SeededRandom(seed: 20_261_122)
        let rows = (1...Self.rowCount).shuffled(using: &random).map { id in Self.makeRow(id: id, using: &random) }

        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE technology (id INTEGER PRIMARY KEY, name TEXT NOT NULL, vendorName TEXT, tier TEXT NOT NULL, viewCount INTEGER, created TEXT NOT NULL)")
            for row in rows {
                try db.execute(sql: "INSERT INTO technology VALUES (?, ?, ?, ?, ?, ?)", arguments: [row.id, row.name, row.vendor, row.tier, row.views, row.created])
            }
        }

        let tierShape = ValueShape.enumeration(EnumShape(name: "TechnologyTier", names: Self.tiers, values: [], isInt: false))
        let fields: [(name: String, shape: ValueShape)] = [("Id", .number(.int64)), ("Name", .string), ("VendorName", .string),
                                                           ("Tier", tierShape), ("ViewCount", .nullable(.number(.int32))), ("Created", .dateTime)]
        let coercion = ValueCoercion(catalog: TypeCatalog(metadata: try MetadataTypes(json: ["types": [], "operations": []])))
        let builder = QueryConditionBuilder(fields: fields, coercion: coercion)
        let engine = AutoQueryEngine(rows: rows.map { row in
            DTOObject([("Id", .number(JSONNumber(row.id))), ("Name", .string(row.name)), ("VendorName", row.vendor.map { .string($0) } ?? .null),
                       ("Tier", .enumMember(row.tier)), ("ViewCount", row.views.map { .number(JSONNumber($0)) } ?? .null),
                       ("Created", .dateTime(DateTimeValue(parsing: row.created)!))])
        }, fields: fields.map(\.name), maxLimit: Self.maxLimit, includeTotal: true)

        var mismatches: [String] = []
        for index in 0..<Self.queryCount {
            let conditions = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.makeCondition(rows, using: &random) }
            let isOr = Bool.random(using: &random)
            let orderFields = ["Name", "VendorName", "ViewCount", "Created", "Tier", "Id"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))
            let order = orderFields.map { (field: $0, descending: Bool.random(using: &random)) }
            let skip = Bool.random(using: &random) ? Int.random(in: 0...30, using: &random) : nil
            let take = Bool.random(using: &random) ? Int.random(in: 1...150, using: &random) : nil

            var query = AutoQuery(defaultTerm: isOr ? .or : .and, skip: skip, take: take)
            if !order.isEmpty {
                // The same order either as orderBy, or as orderByDesc with every sign inverted.
                if Bool.random(using: &random) {
                    query.orderBy = order.map { ($0.descending ? "-" : "") + $0.field }
                } else {
                    query.orderByDesc = order.map { ($0.descending ? "" : "-") + $0.field }
                }
            }
            for generated in conditions {
                for (name, value) in generated.parameters {
                    let condition = try #require(try builder.condition(name: name, value: value), "\(name)=\(value)")
                    query.conditions.append((condition, isOr ? .or : .and))
                }
            }
            let result = try engine.run(query)
            let engineIds = result.rows.compactMap { $0["Id"].intValue }

            var sql = "SELECT id FROM technology"
            if !conditions.isEmpty {
                sql += " WHERE " + conditions.map { "(" + $0.sql.joined(separator: " AND ") + ")" }.joined(separator: isOr ? " OR " : " AND ")
            } else if isOr {
                sql += " WHERE 1=0"
            }
            sql += " ORDER BY " + (order.map { "\($0.field) \($0.descending ? "DESC" : "ASC")" } + ["id ASC"]).joined(separator: ", ")
            sql += " LIMIT \(min(take ?? Self.maxLimit, Self.maxLimit)) OFFSET \(skip ?? 0)"
            let arguments = StatementArguments(conditions.flatMap(\.arguments))
            let sqlIds = try database.read { db in try Int.fetchAll(db, sql: sql, arguments: arguments) }
            // The total ignores paging: the COUNT(*) of the same WHERE.
            let countSQL = "SELECT COUNT(*) FROM technology" + (sql.range(of: " WHERE ").map { String(sql[$0.lowerBound..<sql.range(of: " ORDER BY ")!.lowerBound]) } ?? "")
            let sqlTotal = try database.read { db in try Int.fetchOne(db, sql: countSQL, arguments: arguments) ?? -1 }

            if engineIds != sqlIds || result.total != sqlTotal || result.offset != (skip ?? 0), mismatches.count < 5 {
                let parameters = conditions.flatMap(\.parameters).map { "\($0.0)=\($0.1)" }.joined(separator: "&")
                mismatches.append("#\(index) ?\(parameters) term=\(isOr ? "or" : "and") order=\(order) skip=\(skip ?? -1) take=\(take ?? -1)\n  SQL: \(sql)\n  engine \(engineIds.prefix(12)) total \(result.total) vs sqlite \(sqlIds.prefix(12)) total \(sqlTotal)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    // MARK: Data

    static func makeRow(id: Int, using random: inout SeededRandom) -> Row {
        let name = words.randomElement(using: &random)! + (Bool.random(using: &random) ? " " + String(Int.random(in: 1...99, using: &random)) : "")
        let vendor = Int.random(in: 0..<8, using: &random) == 0 ? nil : vendors.randomElement(using: &random)
        let views = Int.random(in: 0..<6, using: &random) == 0 ? nil : Int.random(in: 0...1_000, using: &random)
        let created = String(format: "20%02d-%02d-%02dT%02d:%02d:00Z", Int.random(in: 10...24, using: &random), Int.random(in: 1...12, using: &random),
                             Int.random(in: 1...28, using: &random), Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random))
        return Row(id: id, name: name, vendor: vendor, tier: tiers.randomElement(using: &random)!, views: views, created: created)
    }

    // MARK: Conditions

    /// One condition as a parameter (name and text, the way a client sends it) and as the SQL
    /// AutoQuery writes for it.
    static func makeCondition(_ rows: [Row], using random: inout SeededRandom) -> Generated {
        let row = rows.randomElement(using: &random)!
        let otherRow = rows.randomElement(using: &random)!
        func text(_ field: String, _ value: String?) -> String { value ?? "" }
        switch Int.random(in: 0..<23, using: &random) {
        case 20:
            let vendor = row.vendor ?? "Google"
            return Generated(parameters: [("VendorName!", vendor)], sql: ["vendorName <> ?"], arguments: [vendor])
        case 21:
            let vendor = otherRow.vendor ?? "M"
            return Generated(parameters: [("VendorNameGreaterThan", vendor)], sql: ["vendorName > ?"], arguments: [vendor])
        case 22:
            let ids = [row.id, otherRow.id]
            return Generated(parameters: [("IdIn", "[\(ids[0]),\(ids[1])]")], sql: ["id IN (?, ?)"], arguments: ids)
        case 0: return Generated(parameters: [("Name", row.name)], sql: ["name = ?"], arguments: [row.name])
        case 1: return Generated(parameters: [("vendorName", row.vendor ?? "")], sql: [row.vendor == nil ? "vendorName IS NULL" : "vendorName = ?"], arguments: row.vendor.map { [$0] } ?? [])
        case 2:
            let fragment = String(row.name.prefix(Int.random(in: 1...3, using: &random)))
            let value = Bool.random(using: &random) ? fragment.uppercased() : fragment.lowercased()
            return Generated(parameters: [("NameStartsWith", value)], sql: ["UPPER(name) LIKE UPPER(?)"], arguments: [value + "%"])
        case 3:
            let value = String(row.name.dropFirst().prefix(2)).uppercased()
            return Generated(parameters: [("NameContains", value)], sql: ["UPPER(name) LIKE UPPER(?)"], arguments: ["%" + value + "%"])
        case 4:
            let value = String((row.vendor ?? "e").suffix(2))
            return Generated(parameters: [("VendorNameEndsWith", value)], sql: ["UPPER(vendorName) LIKE UPPER(?)"], arguments: ["%" + value])
        case 5:
            let pattern = ["%o%", "_o%", "%s", "r%", "%a_"].randomElement(using: &random)!
            return Generated(parameters: [("NameLike", pattern)], sql: ["UPPER(name) LIKE UPPER(?)"], arguments: [pattern])
        case 6: return Generated(parameters: [("Tier", row.tier)], sql: ["tier = ?"], arguments: [row.tier])
        case 7: return Generated(parameters: [("Tier!", row.tier)], sql: ["tier <> ?"], arguments: [row.tier])
        case 8: return Generated(parameters: [("TierIn", "\(row.tier),\(otherRow.tier)")], sql: ["tier IN (?, ?)"], arguments: [row.tier, otherRow.tier])
        case 9:
            let value = Int.random(in: 0...1_000, using: &random)
            return Generated(parameters: [("ViewCountAbove", String(value))], sql: ["viewCount > ?"], arguments: [value])
        case 10:
            let value = Int.random(in: 0...1_000, using: &random)
            return Generated(parameters: [(">ViewCount", String(value))], sql: ["viewCount >= ?"], arguments: [value])
        case 11:
            let value = Int.random(in: 0...1_000, using: &random)
            return Generated(parameters: [("MaxViewCount", String(value))], sql: ["viewCount <= ?"], arguments: [value])
        case 12:
            let value = Int.random(in: 0...1_000, using: &random)
            return Generated(parameters: [("ViewCountBelow", String(value))], sql: ["viewCount < ?"], arguments: [value])
        case 13:
            let a = Int.random(in: 0...1_000, using: &random), b = Int.random(in: 0...1_000, using: &random)
            return Generated(parameters: [("ViewCountBetween", "\(min(a, b)),\(max(a, b))")], sql: ["viewCount BETWEEN ? AND ?"], arguments: [min(a, b), max(a, b)])
        case 14:
            let ids = (0..<Int.random(in: 1...5, using: &random)).map { _ in Int.random(in: 1...(rowCount + 20), using: &random) }
            return Generated(parameters: [("Ids", ids.map(String.init).joined(separator: ","))], sql: ["id IN (" + ids.map { _ in "?" }.joined(separator: ", ") + ")"], arguments: ids)
        case 15: return Generated(parameters: [("ViewCountIsNull", "")], sql: ["viewCount IS NULL"], arguments: [])
        case 16: return Generated(parameters: [("VendorNameIsNotNull", "1")], sql: ["vendorName IS NOT NULL"], arguments: [])
        case 17: return Generated(parameters: [("CreatedAfter", row.created)], sql: ["created > ?"], arguments: [row.created])
        case 18: return Generated(parameters: [("CreatedBefore", row.created)], sql: ["created < ?"], arguments: [row.created])
        default:
            // Text ordering comparisons: a binary collation.
            return Generated(parameters: [("NameGreaterThan", row.name)], sql: ["name > ?"], arguments: [row.name])
        }
    }
}
