import MockStackCore
import Testing
@testable import MockStackFeathers

/// The qs rules of docs/feathers.md#query-strings, each with an example.
@Suite struct QSParserTests {
    private func parse(_ text: String, _ parser: QSParser = QSParser()) -> JSONValue { .object(parser.parse(text)) }

    @Test func bracketsNestAndEncodedBracketsDoTheSame() {
        #expect(parse("a[b]=c") == ["a": ["b": "c"]])
        #expect(parse("a%5Bb%5D=c") == ["a": ["b": "c"]])
        #expect(parse("age[$gt]=30&age[$lt]=40") == ["age": ["$gt": "30", "$lt": "40"]])
        #expect(parse("$sort[name]=1&$sort[age]=-1") == ["$sort": ["name": "1", "age": "-1"]])
    }

    @Test func depthStopsAtFiveAndKeepsTheRestAsOneKey() {
        #expect(parse("a[b][c][d][e][f][g][h]=i") == ["a": ["b": ["c": ["d": ["e": ["f": ["[g][h]": "i"]]]]]]])
    }

    @Test func parameterLimitIgnoresTheRest() {
        let text = (0..<1005).map { "k\($0)=v" }.joined(separator: "&")
        let parsed = QSParser().parse(text)
        #expect(parsed.count == 1000)
        #expect(parsed["k999"] == "v")
        #expect(parsed["k1000"] == nil)
    }

    @Test func arraysFromBracketsIndicesAndRepeats() {
        #expect(parse("a[]=x&a[]=y") == ["a": ["x", "y"]])
        #expect(parse("a[0]=x&a[1]=y") == ["a": ["x", "y"]])
        #expect(parse("a[1]=b&a[15]=c") == ["a": ["b", "c"]])
        #expect(parse("a=1&a=2") == ["a": ["1", "2"]])
        // Repeats found among many keys, before and after the twentieth, keep first-seen order.
        let many = (0..<30).map { "k\($0)=\($0)" } + ["k3=x", "k25=y", "k3=z", "&&", "=nokey", "k3"]
        let parsed = QSParser().parse(many.joined(separator: "&"))
        #expect(parsed.keys == (0..<30).map { "k\($0)" })
        #expect(parsed["k3"] == ["3", "x", "z", ""])
        #expect(parsed["k25"] == ["25", "y"])
        #expect(parse("a+b=c+d%20e&%zz=1+%2") == ["a b": "c d e", "%zz": "1 %2"])
        #expect(parse("name[$in][]=a&name[$in][]=b") == ["name": ["$in": ["a", "b"]]])
        #expect(parse("name[$in][0]=a&name[$in][1]=b") == ["name": ["$in": ["a", "b"]]])
        #expect(parse("$select[]=name&$select[]=email") == ["$select": ["name", "email"]])
        #expect(parse("$or[0][name]=x&$or[1][age][$gt]=3") == ["$or": [["name": "x"], ["age": ["$gt": "3"]]]])
    }

    @Test func indicesAboveTwentyMakeObjectKeys() {
        #expect(parse("a[100]=b") == ["a": ["100": "b"]])
        #expect(parse("a[20]=b") == ["a": ["b"]])
        #expect(parse("a[21]=b") == ["a": ["21": "b"]])
        // No huge allocation either way.
        #expect(parse("a[999999999]=b") == ["a": ["999999999": "b"]])
    }

    @Test func mixingArraysAndKeysMakesAnObject() {
        #expect(parse("a[]=b&a[c]=d") == ["a": ["0": "b", "c": "d"]])
    }

    @Test func dotsPlusEmptyValuesAndTypes() {
        #expect(parse("a.b=c") == ["a.b": "c"])
        #expect(parse("q=hello+world&r=a%20b") == ["q": "hello world", "r": "a b"])
        #expect(parse("a=&b") == ["a": "", "b": ""])
        // Every leaf stays text.
        #expect(parse("archived[$ne]=true&n=10&z=null") == ["archived": ["$ne": "true"], "n": "10", "z": "null"])
        #expect(parse("") == [:])
        #expect(parse("&&=x&") == [:])
    }

    @Test func badPercentEncodingStaysAsText() {
        #expect(parse("a=%E0%A4%A&b=%zz") == ["a": "%E0%A4%A", "b": "%zz"])
    }

    @Test func integerKeysListFirstLikeJavaScriptObjects() throws {
        let parsed = QSParser().parse("b=1&2=x&a=2&1=y")
        #expect(parsed.keys == ["1", "2", "b", "a"])
    }

    @Test func segmentsSkipUnclosedBrackets() {
        let parser = QSParser()
        #expect(parser.segments(of: "a[b][c]") == ["a", "[b]", "[c]"])
        #expect(parser.segments(of: "a[b") == ["a[b"])
        #expect(parser.segments(of: "[a]") == ["[a]"])
        #expect(parse("a[b=c") == ["a[b": "c"])
    }

    @Test func hugeInputsStayBounded() {
        let deep = "a" + String(repeating: "[x]", count: 10_000) + "=1"
        let parsed = parse(deep)
        var depth = 0
        var current = parsed
        while case .object(let object) = current, let next = object.members.first?.value { depth += 1; current = next }
        #expect(depth == 7)
        #expect(QSParser().parse(String(repeating: "a[]=x&", count: 5000))["a"]?.arrayValue?.count == 1000)
    }
}
