import Testing
@testable import MockStackJSON

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderAndNumberLiterals() throws {
        let document = try JSONParser().parse(#"{"z":1.50,"a":[true,null,"x"],"m":{"k":-2e3}}"#)
        #expect(document.root.objectValue?.keys == ["z", "a", "m"])
        #expect(document.root.jsonText == #"{"z":1.50,"a":[true,null,"x"],"m":{"k":-2e3}}"#)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser().parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#).root
        #expect(value == .string("a\"b\\c/d\né😀"))
        #expect(value.jsonText == "\"a\\\"b\\\\c/d\\né😀\"")
    }

    @Test func encodesControlCharactersAsUnicodeEscapes() {
        #expect(JSONValue.string("\u{01}\t").jsonText == #""\u0001\t""#)
    }

    /// Strings are looked over eight bytes at a time: each byte that needs an escape, and
    /// multi-byte characters that must not, at every offset of a word, and at the ends.
    @Test func escapesEveryByteThatNeedsItAtEveryOffset() throws {
        let specials: [(text: String, escaped: String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1F}", #"\u001F"#), ("\u{00}", #"\u0000"#),
            ("\u{7F}", "\u{7F}"), ("é", "é"), ("😀", "😀"), (" ", " "), ("!", "!"), ("#", "#"), ("[", "["), ("]", "]"),
        ]
        for special in specials {
            for offset in 0..<19 {
                let before = String(repeating: "a", count: offset), after = String(repeating: "b", count: 18 - offset)
                let text = before + special.text + after + special.text
                let expected = "\"" + before + special.escaped + after + special.escaped + "\""
                #expect(JSONValue.string(text).jsonText == expected, "\(special.text.debugDescription) at \(offset)")
                #expect(try JSONParser().parse(expected).root == .string(text))
            }
        }
    }

    @Test func streamsTheElementsOfAnArrayDocument() throws {
        var seen: [(Int, JSONValue)] = []
        #expect(try JSONParser().forEachElement(of: Array(#" [ {"id":1}, 2 ,"three" ] "#.utf8)) { seen.append(($0, $1)) })
        #expect(seen.map(\.0) == [0, 1, 2])
        #expect(seen.map(\.1) == [["id": 1], 2, "three"])
        #expect(try JSONParser().forEachElement(of: Array("[]".utf8)) { _, _ in Issue.record("no elements") })
        #expect(try !JSONParser().forEachElement(of: Array(#"{"a":1}"#.utf8)) { _, _ in Issue.record("not an array") })
        #expect(throws: JSONSyntaxError(message: "expected ',' or ']' in an array, found '}'", position: SourcePosition(line: 2, column: 3), pointer: "")) {
            try JSONParser().forEachElement(of: Array("[1,\n 2}".utf8)) { _, _ in }
        }
    }

    @Test func recordsPositionsByPointer() throws {
        let text = "{\n  \"routes\": [\n    {\"path\": \"/a\"},\n    {\"path\": 5}\n  ]\n}"
        let document = try JSONParser().parse(text, recordPositions: true)
        #expect(document.position(of: "/routes/1/path") == SourcePosition(line: 4, column: 14))
        #expect(document.position(of: "/routes/0") == SourcePosition(line: 3, column: 5))
        #expect(document.position(of: "/routes/1/missing") == SourcePosition(line: 4, column: 5))
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8, "expected a quoted member name, found '}'"),
        ("[1,2", 1, 5, "unexpected end of input inside an array"),
        ("{\"a\" 1}", 1, 6, "expected ':' after member name \"a\""),
        ("01", 1, 2, "numbers must not have leading zeros"),
        ("\"\\x\"", 1, 3, "invalid escape '\\x'"),
        ("{}\n x", 2, 2, "unexpected 'x' after the end of the document"),
        ("\"\u{01}\"", 1, 2, "control character 0x1 must be escaped in a string"),
    ])
    func reportsSyntaxErrorsWithPositions(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError(message: message, position: SourcePosition(line: line, column: column), pointer: "")) {
            try JSONParser().parse(text)
        }
    }

    @Test func rejectsNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONSyntaxError.self) { try JSONParser(maximumDepth: 256).parse(deep) }
        #expect((try? JSONParser(maximumDepth: 400).parse(deep)) != nil)
    }

    @Test func rejectsInvalidUTF8InStrings() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse([0x22, 0xFF, 0x22]) }
    }
}

@Suite struct JSONDuplicateKeyTests {
    /// As `JSON.parse` and System.Text.Json read it: the first place, the last value.
    @Test func aRepeatedMemberKeepsItsFirstPlaceAndLastValue() throws {
        let small = try JSONParser().parse(#"{"a":1,"b":2,"a":3}"#).root
        #expect(small.objectValue?.keys == ["a", "b"] && small["a"] == 3)
        let large = try JSONParser().parse("{" + (0..<40).map { #""k\#($0 % 20)":\#($0)"# }.joined(separator: ",") + "}").root
        #expect(large.objectValue?.keys == (0..<20).map { "k\($0)" } && large["k0"] == 20 && large["k19"] == 39)
        #expect(try JSONParser().parse(#"{"a":1,"b":2}"#).root.jsonText == #"{"a":1,"b":2}"#)
    }
}

/// A large document (a data set) takes the parser's quicker ways: names remembered between
/// rows, names told apart by their length and three bytes, arrays sized from the previous
/// object. What it reads must be exactly what a small document gives.
@Suite struct JSONLargeDocumentTests {
    /// 200 rows, over the size where names are remembered.
    static func rows(_ row: (Int) -> String) -> String {
        "[\n" + (0..<200).map(row).joined(separator: ",\n") + "\n]"
    }

    @Test func namesAlikeInLengthAndEndsStayApartAndRepeatsKeepTheirFirstPlace() throws {
        // `axbyc` and `azbwc` share their length, first, middle and last bytes.
        let text = Self.rows { #"{"axbyc":\#($0),"azbwc":"é\#($0)","axbyc":-\#($0),"n\u0061me":"x"}"# }
        #expect(text.utf8.count > 4096)
        let rows = try JSONParser().parse(text).root.arrayValue ?? []
        #expect(rows.count == 200)
        for (index, row) in rows.enumerated() {
            #expect(row.objectValue?.keys == ["axbyc", "azbwc", "name"])
            #expect(row["axbyc"] == .number(JSONNumber(literal: "-\(index)")) && row["azbwc"] == .string("é\(index)"))
        }
    }

    @Test func errorsAndPositionsAreTheSmallDocumentsOnes() throws {
        let text = Self.rows { #"{"id":\#($0),"name":"n\#($0)"}"# }
        let document = try JSONParser().parse(text, recordPositions: true)
        #expect(document.position(of: "/150/name") == SourcePosition(line: 152, column: 18))
        #expect(document.root.arrayValue?[150]["name"] == "n150")
        // Row 199's name is `n`, then the byte 0xFF: refused after its closing quote.
        var broken = Array(text.utf8)
        let marker = Array(#""n199""#.utf8)
        let at = try #require((0...(broken.count - marker.count)).first { broken[$0..<$0 + marker.count].elementsEqual(marker) })
        broken.replaceSubrange(at + 2..<at + 5, with: [0xFF])
        #expect(throws: JSONSyntaxError(message: "string is not valid UTF-8", position: SourcePosition(line: 201, column: 22), pointer: "/199/name")) {
            try JSONParser().parse(broken)
        }
    }
}

/// Request bodies are read with a bound on their values: linear as the parser is, enough small
/// values would hold the event loop, and every connection on it, for as long as they take to read.
@Suite struct JSONValueLimitTests {
    @Test func aDocumentPastItsValueLimitIsRefusedAndOneAtItIsRead() throws {
        let parser = JSONParser(maximumValues: 4)
        // The array and its three numbers: four values.
        #expect(try parser.parse("[1,2,3]").root == [1, 2, 3])
        #expect(throws: JSONSyntaxError.self) { try parser.parse("[1,2,3,4]") }
        do {
            _ = try parser.parse(#"{"a":[1,{"b":2}]}"#)
            Issue.record("five values were read")
        } catch {
            #expect(error.message == "more than 4 values in one document")
        }
    }

    @Test func requestBodiesStopAtAQuarterMillionValues() throws {
        #expect(JSONParser.requestBodyValueLimit == 250_000)
        let atLimit = "[" + Array(repeating: "1", count: 249_999).joined(separator: ",") + "]"
        #expect(try JSONParser.forRequestBodies().parse(atLimit).root.arrayValue?.count == 249_999)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.forRequestBodies().parse("[" + atLimit + "]") }
    }
}

@Suite struct JSONObjectMergeTests {
    @Test func mergeSetsLikeTheSubscriptInLinearTime() {
        var object: JSONObject = ["a": 1, "b": 2]
        object.merge(["b": 20, "c": 3, "a": 10])
        // Present keys keep their place; new ones go last, in the other's order.
        #expect(object.keys == ["a", "b", "c"])
        #expect(object == ["a": 10, "b": 20, "c": 3])
        // A quarter million new keys: one pass (each subscript set would scan them all).
        var large = JSONObject()
        large.merge(JSONObject((0..<250_000).map { (key: "k\($0)", value: JSONValue.number(JSONNumber($0))) }))
        #expect(large.count == 250_000 && large["k249999"] == 249_999)
    }
}
