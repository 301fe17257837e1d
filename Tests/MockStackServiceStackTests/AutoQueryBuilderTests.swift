import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Untyped AutoQuery parameters read into conditions (docs/servicestack.md#values).
@Suite struct AutoQueryBuilderTests {
    let builder = QueryConditionBuilder(
        fields: [("Id", .number(.int64)), ("Name", .string), ("ViewCount", .nullable(.number(.int32))),
                 ("Created", .dateTime), ("Tier", .enumeration(EnumShape(name: "TechnologyTier", names: ["ProgrammingLanguage", "Client", "Server"], values: [], isInt: false)))],
        coercion: ValueCoercion(catalog: TypeCatalog(metadata: try! MetadataTypes(json: ["types": [], "operations": []]))))

    @Test func valuesAreReadAsTheFieldsType() throws {
        #expect(try builder.condition(name: "ViewCountAbove", value: "10") == QueryCondition(field: "ViewCount", operator: .greaterThan, values: [.number(JSONNumber(10))]))
        #expect(try builder.condition(name: "tier", value: "server") == QueryCondition(field: "Tier", operator: .equal, values: [.enumMember("Server")]))
        #expect(try builder.condition(name: "Name", value: "\"quoted, raw\"") == QueryCondition(field: "Name", operator: .equal, values: [.string("\"quoted, raw\"")]))
        #expect(try builder.condition(name: "CreatedBefore", value: "2016-01-01")?.values == [.dateTime(DateTimeValue(parsing: "2016-01-01")!)])
    }

    @Test func listsPluralsAndBetween() throws {
        #expect(try builder.condition(name: "Ids", value: "1,2,3")?.values.count == 3)
        #expect(try builder.condition(name: "IdIn", value: "[1,2]") == QueryCondition(field: "Id", operator: .in, values: [.number(JSONNumber(1)), .number(JSONNumber(2))]))
        #expect(try builder.condition(name: "Names", value: "Go,Swift") == QueryCondition(field: "Name", operator: .in, values: [.string("Go"), .string("Swift")]))
        #expect(try builder.condition(name: "ViewCountBetween", value: "1,10")?.values.count == 2)
        #expect(throws: ServiceError(.argument, "ViewCount requires 2 values")) { try builder.condition(name: "ViewCountBetween", value: "1,2,3") }
        #expect(throws: ServiceError(.argument, "ViewCount requires 2 values")) { try builder.condition(name: "ViewCountBetween", value: "5") }
    }

    @Test func emptyMeansNullAndEqualityBecomesIsNull() throws {
        #expect(try builder.condition(name: "Name", value: "") == QueryCondition(field: "Name", operator: .isNull, values: []))
        #expect(try builder.condition(name: "NameIsNotNull", value: "whatever") == QueryCondition(field: "Name", operator: .isNotNull, values: []))
        #expect(try builder.condition(name: "ViewCountAbove", value: "")?.values == [.null])
    }

    @Test func unreadableValuesAre400AndUnknownNamesIgnored() throws {
        #expect(throws: ServiceError(.argument, "'abc' is an Invalid value for 'ViewCount'")) { try builder.condition(name: "ViewCountAbove", value: "abc") }
        #expect(throws: ServiceError(.argument, "'Cloud' is an Invalid value for 'Tier'")) { try builder.condition(name: "Tier", value: "Cloud") }
        #expect(try builder.condition(name: "NoSuchField", value: "1") == nil)
        #expect(try builder.condition(name: "take", value: "3") == nil)
    }

    @Test func listsAndPatternsHaveLimits() {
        let many = (0...QueryConditionBuilder.maximumListCount).map(String.init).joined(separator: ",")
        #expect(throws: ServiceError(.argument, "Id: more than 1000 values")) { try builder.condition(name: "Ids", value: many) }
        #expect(throws: ServiceError(.argument, "Name: a pattern of more than 256 characters")) {
            try builder.condition(name: "NameContains", value: String(repeating: "%a", count: 200))
        }
    }
}

extension AutoQueryBuilderTests {
    @Test func integerEnumsAreNumbersWhicheverWayTheyAreWritten() throws {
        let flags = ValueShape.enumeration(EnumShape(name: "Level", names: ["Low", "High"], values: ["1", "8"], isInt: true))
        let levels = QueryConditionBuilder(fields: [("Level", flags)], coercion: builder.coercion)
        #expect(try levels.condition(name: "Level", value: "High")?.values == [.number(JSONNumber(8))])
        #expect(try levels.condition(name: "Level", value: "8")?.values == [.number(JSONNumber(8))])
        let row = DTOObject([("Level", builder.coercion.fromJSON("high", as: flags)!)])
        #expect(row["Level"] == .number(JSONNumber(8)))
        #expect(try levels.condition(name: "Level", value: "High")!.matches(row))
    }
}
