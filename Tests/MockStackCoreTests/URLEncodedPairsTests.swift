import MockStackCore
import Testing

@Suite struct URLEncodedPairsTests {
    private func pairs(_ text: String, limit: Int = .max) -> [String]? {
        URLEncodedPairs.split(text, limit: limit)?.map { "\($0.name)=\($0.value)" }
    }

    @Test func splitsAtAmpersandsAndTheFirstEquals() {
        #expect(pairs("type=NotFound&message=not+here") == ["type=NotFound", "message=not here"])
        #expect(pairs("a=1=2&b==&c") == ["a=1=2", "b==", "c="])
        #expect(pairs("ids=1&ids=2") == ["ids=1", "ids=2"])
        #expect(pairs("") == [])
    }

    @Test func leavesOutEmptyPartsAndEmptyNames() {
        #expect(pairs("&&a=1&&=x&=&b") == ["a=1", "b="])
    }

    @Test func decodesEscapesAndPlusesInNamesAndValuesApart() {
        #expect(pairs("a+b=c+d") == ["a b=c d"])
        #expect(pairs("q=%7B%22a%22%3A1%7D&n%61me=v") == ["q={\"a\":1}", "name=v"])
        #expect(pairs("x=a%2Bb+c") == ["x=a+b c"])
        #expect(pairs("x=caf%C3%A9&y=é") == ["x=café", "y=é"])
        // A `+` in the name only leaves the value as sent, and the other way round.
        #expect(pairs("a+b=%41") == ["a b=A"])
        // A bad escape is kept as it is.
        #expect(pairs("x=100%&y=%zz+1") == ["x=100%", "y=%zz 1"])
    }

    @Test func refusesMoreThanTheLimit() {
        #expect(pairs("a=1&b=2", limit: 2) == ["a=1", "b=2"])
        #expect(pairs("a=1&b=2&c=3", limit: 2) == nil)
        // Parts left out do not count.
        #expect(pairs("a=1&&=x&b=2", limit: 2) == ["a=1", "b=2"])
    }
}
