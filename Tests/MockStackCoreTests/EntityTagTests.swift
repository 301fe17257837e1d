import Testing
import MockStackCore

@Suite struct EntityTagTests {
    @Test func isStableAndMatchesIfNoneMatchLists() {
        let tag = EntityTag(of: Array("hello".utf8))
        #expect(tag == EntityTag(of: Array("hello".utf8)))
        #expect(tag != EntityTag(of: Array("hellp".utf8)))
        #expect(tag.headerValue.count == 18)
        #expect(tag.isMatched(byIfNoneMatch: tag.headerValue))
        #expect(tag.isMatched(byIfNoneMatch: "\"x\", W/\(tag.headerValue)"))
        #expect(tag.isMatched(byIfNoneMatch: "*"))
        #expect(!tag.isMatched(byIfNoneMatch: "\"other\""))
    }
}
