import Testing
@testable import MockStackServiceStack

/// Parameter-name matching of AutoQuery (docs/servicestack.md#autoquery), over TechStacks' Technology fields.
@Suite struct AutoQueryConventionTests {
    let resolver = QueryParameterResolver(
        fields: ["Id", "Name", "VendorName", "Description", "Tier", "ViewCount", "Created", "LastModified", "Slug", "Category"],
        aliases: ["Views": "ViewCount"])

    @Test(arguments: [
        ("Name", "Name", QueryConvention.Operator.equal),
        ("vendorName", "VendorName", .equal),
        ("VENDORNAME", "VendorName", .equal),
        ("Ids", "Id", .in),
        ("Categories", "Category", .in),
        ("NameContains", "Name", .contains),
        ("nameContains", "Name", .contains),
        ("NameStartsWith", "Name", .startsWith),
        ("DescriptionEndsWith", "Description", .endsWith),
        ("ViewCountAbove", "ViewCount", .greaterThan),
        ("AboveViewCount", "ViewCount", .greaterThan),
        ("MinViewCount", "ViewCount", .greaterThanOrEqual),
        ("MinimumViewCount", "ViewCount", .greaterThanOrEqual),
        ("MaxViewCount", "ViewCount", .lessThanOrEqual),
        ("CreatedOlderThan", "Created", .greaterThan),
        ("CreatedBefore", "Created", .lessThan),
        ("OnOrAfterCreated", "Created", .greaterThanOrEqual),
        ("ViewCountGreaterThanOrEqualTo", "ViewCount", .greaterThanOrEqual),
        ("ViewCountGreaterThan", "ViewCount", .greaterThan),
        ("ViewCountLessThanOrEqualTo", "ViewCount", .lessThanOrEqual),
        ("TierNotEqualTo", "Tier", .notEqual),
        ("Tier!", "Tier", .notEqual),
        ("<>Tier", "Tier", .notEqual),
        (">ViewCount", "ViewCount", .greaterThanOrEqual),
        ("ViewCount>", "ViewCount", .greaterThan),
        ("<ViewCount", "ViewCount", .lessThan),
        ("ViewCount<", "ViewCount", .lessThanOrEqual),
        ("NameLike", "Name", .like),
        ("TierIn", "Tier", .in),
        ("ViewCountBetween", "ViewCount", .between),
        ("SlugIsNull", "Slug", .isNull),
        ("SlugIsNotNull", "Slug", .isNotNull),
        ("Views", "ViewCount", .equal),
        ("ViewsAbove", "ViewCount", .greaterThan),
    ] as [(String, String, QueryConvention.Operator)])
    func namesResolveToFieldsAndConventions(name: String, field: String, op: QueryConvention.Operator) {
        #expect(resolver.resolve(name) == QueryTerm(field: field, operator: op))
    }

    @Test(arguments: ["namecontains", "NAMECONTAINS", "Skip", "take", "OrderByDesc", "fields", "Include", "meta", "jsconfig", "Unknown", "", "Contains"])
    func reservedUnknownAndMiscasedAffixesAreIgnored(name: String) {
        #expect(resolver.resolve(name) == nil)
    }

    @Test func conventionPatternsSplitIntoAffixAndPosition() {
        let above = QueryConvention.implicit[0]
        #expect(above.affix == "Above" && above.isPrefix && above.isSuffix)
        let min = QueryConvention.implicit.first { $0.affix == "Min" }
        #expect(min?.isPrefix == true && min?.isSuffix == false)
        #expect(QueryConvention.implicit.count == 45)
        #expect(QueryConvention.implicit.filter { $0.operator == .in }.map(\.affix) == ["In", "Ids"])
    }
}
