import Foundation
import MockStackAuth
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Every numeric and date coercion at and around its limits: a value just
/// inside a limit parses exactly, one just past it is refused (a binding error, a 400), and no
/// generated input traps.
@Suite struct ValueLimitTests {
    // MARK: TimeSpan

    @Test(arguments: [
        // TimeSpan.MaxValue and MinValue, in both forms, as ServiceStack writes the XSD one.
        ("10675199.02:48:05.4775807", Int64.max, "P10675199DT2H48M5.4775807S"),
        ("P10675199DT2H48M5.4775807S", Int64.max, "P10675199DT2H48M5.4775807S"),
        ("-10675199.02:48:05.4775808", Int64.min, "-P10675199DT2H48M5.4775808S"),
        ("-P10675199DT2H48M5.4775808S", Int64.min, "-P10675199DT2H48M5.4775808S"),
        ("10675199.02:48:05", 9_223_372_036_850_000_000, "P10675199DT2H48M5S"),
        ("00:00:00.0000001", 1, "PT0.0000001S"),
        ("PT0.0000001S", 1, "PT0.0000001S"),
        ("PT0.00000005S", 1, "PT0.0000001S"),
        ("P0.5D", 432_000_000_000, "PT12H"),
    ])
    func timeSpansAtTheirLimitsRoundTrip(input: String, ticks: Int64, xsd: String) throws {
        let span = try #require(TimeSpanValue(parsing: input))
        #expect(span.ticks == ticks)
        #expect(span.xsdText == xsd)
        #expect(TimeSpanValue(parsing: span.xsdText) == span)
    }

    @Test func timeSpansPastTheirLimitsAreRefused() {
        for text in ["10675199.23:59:59", "10675199.02:48:05.4775808", "-10675199.02:48:05.4775809", "10675200.00:00",
                     "P10675199DT2H48M5.4775808S", "-P10675199DT2H48M5.4775809S", "P10675200D", "P18446744073709551616D",
                     "P99999999999999999999D", "PT922337203685.4775808S", "P1Y" + String(repeating: "9", count: 40) + "D",
                     "00:00:00.12345678", "--1:00", "1:-5", "+1:00", "1:60", "24:00", "1:00:60", "1.:00", "00:00:5e1", "P1e9D", "P-1D"] {
            #expect(TimeSpanValue(parsing: text) == nil, "\(text)")
        }
    }

    // MARK: DateTime

    @Test func datesAtTheirLimitsParseAndBeyondAreRefused() throws {
        #expect(try #require(DateTimeValue(parsing: "9999-12-31T23:59:59.9999999Z")).isoText == "9999-12-31T23:59:59.9999999Z")
        #expect(try #require(DateTimeValue(parsing: "0001-01-01T00:00:00Z")).wcfText == "/Date(-62135596800000)/")
        #expect(try #require(DateTimeValue(parsing: "/Date(253402300799999)/")).isoText == "9999-12-31T23:59:59.999Z")
        #expect(try #require(DateTimeValue(parsing: "/Date(253402300799999-1400)/")).isoText == "9999-12-31T09:59:59.999-14:00")
        for text in ["/Date(253402300800000)/", "/Date(-62135596800001)/", "/Date(9223372036854775807)/", "/Date(9223372036854775808)/",
                     "/Date(-9223372036854775808)/", "/Date(253402300799999+0100)/", "/Date(0+9999)/", "/Date(0-+123)/",
                     "/Date(0+1460)/", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "2001-01-01T00:00:00+15:00",
                     "2001-01-01T00:00:00+01:60", "/Date(" + String(repeating: "9", count: 4096) + ")/",
                     // .NET's offsets stop at ±14:00.
                     "/Date(0+1401)/", "/Date(0-1459)/", "2001-01-01T00:00:00+14:30", "2001-01-01T00:00:00-14:01"] {
            #expect(DateTimeValue(parsing: text) == nil, "\(text)")
        }
    }

    // MARK: Numbers

    @Test func integersAtTheirLimits() {
        #expect(ValueCoercion.number("9223372036854775807", .int64)?.literal == "9223372036854775807")
        #expect(ValueCoercion.number("-9223372036854775808", .int64)?.literal == "-9223372036854775808")
        #expect(ValueCoercion.number("18446744073709551615", .uint64)?.literal == "18446744073709551615")
        #expect(ValueCoercion.number("2147483647", .int32)?.literal == "2147483647")
        #expect(ValueCoercion.number("79228162514264337593543950335", .decimal)?.literal == "79228162514264337593543950335")
        for (text, kind) in [("9223372036854775808", NumberKind.int64), ("-9223372036854775809", .int64), ("18446744073709551616", .uint64),
                             ("-1", .uint64), ("2147483648", .int32), ("1e999999999", .double), ("-1e999999999", .int64),
                             ("1e400", .decimal), ("1e29", .decimal), ("4e38", .single), (String(repeating: "9", count: 100_000), .int64),
                             (String(repeating: "9", count: 100_000), .double), ("nan", .double), ("inf", .double), ("1e-999999999x", .double)] {
            #expect(ValueCoercion.number(text, kind) == nil, "\(text.prefix(40)) as \(kind)")
        }
        #expect(ValueCoercion.number("1e-999999999", .double)?.literal == "0")
    }

    // MARK: Generated inputs

    /// Texts near every limit: the limits themselves, one digit or one unit either side, and
    /// random splices of digits, signs and separators.
    static func generatedTexts(count: Int, seed: UInt64) -> [String] {
        let edges = ["10675199.02:48:05.4775807", "-10675199.02:48:05.4775808", "10675199.23:59:59", "P10675199DT2H48M5.4775807S",
                     "/Date(253402300799999)/", "/Date(-62135596800000)/", "9999-12-31T23:59:59.9999999Z", "0001-01-01T00:00:00Z",
                     "9223372036854775807", "-9223372036854775808", "18446744073709551615", "79228162514264337593543950335",
                     "1e308", "1e999999999", "PT1S", "00:00:00", "/Date(0+1400)/"]
        let alphabet = Array("0123456789.:-+PTYMWDHSe/Date()Z ,9")
        var random = SeededRandom(seed: seed)
        var texts = edges
        while texts.count < count {
            var text = Array(edges[Int(random.next() % UInt64(edges.count))])
            // A few edits: replace, insert or delete one character.
            for _ in 0..<(1 + random.next() % 4) {
                let position = text.isEmpty ? 0 : Int(random.next() % UInt64(text.count))
                let character = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 4 {
                case 0 where !text.isEmpty: text[position] = character
                case 1 where !text.isEmpty: text.remove(at: position)
                case 2: text.insert(contentsOf: Array(repeating: "9", count: Int(random.next() % 30)), at: position)
                default: text.insert(character, at: position)
                }
            }
            texts.append(String(text))
        }
        return texts
    }

    @Test func noGeneratedValueTrapsAnyCoercion() {
        let coercion = ValueCoercion(catalog: TypeCatalog(metadata: SerializationTests.metadata))
        let shapes: [ValueShape] = [.timeSpan, .dateTime, .dateTimeOffset, .number(.int64), .number(.uint64), .number(.int32), .number(.byte),
                                    .number(.decimal), .number(.double), .number(.single)]
        var parsed = 0
        for text in Self.generatedTexts(count: 20_000, seed: 22) {
            for shape in shapes where coercion.fromText(text, as: shape) != nil { parsed += 1 }
            // What parses as a span or a date writes a text that parses back to the same value.
            if let span = TimeSpanValue(parsing: text) { #expect(TimeSpanValue(parsing: span.xsdText) == span, "\(text)") }
            if let date = DateTimeValue(parsing: text) {
                #expect(DateTimeValue(parsing: date.isoText)?.ticks == date.ticks, "\(text)")
                #expect(DateTimeValue.isInRange(date.ticks), "\(text)")
            }
        }
        // The generator reaches both sides of the limits.
        #expect(parsed > 1_000)
    }
}

/// A signed token's `iat`/`exp` are whatever its signer wrote; reading them never traps.
@Suite struct TokenClaimLimitTests {
    @Test func claimSecondsAreClampedNotTrapped() {
        let huge = TokenClaims(subject: "1", issuedAt: Date(timeIntervalSince1970: 1e300), expiration: Date(timeIntervalSince1970: -.infinity))
        #expect(huge.issuedAtSeconds == 1 << 53)
        #expect(huge.expirySeconds == -(1 << 53))
        let plain = TokenClaims(subject: "1", issuedAt: Date(timeIntervalSince1970: 1_763_763_303.9), expiration: Date(timeIntervalSince1970: -1.5))
        #expect(plain.issuedAtSeconds == 1_763_763_303 && plain.expirySeconds == -2)
    }
}

/// JSV text is read with the same bound on its values as JSON request bodies (a field of
/// 8 million `1,` was millions of nodes).
struct JSVValueLimitTests {
    @Test func aListPastTheLimitIsNotReadAndOneAtItIs() {
        let atLimit = Array(repeating: "1", count: JSONParser.requestBodyValueLimit).joined(separator: ",")
        #expect(JSVReader.readList(atLimit)?.count == JSONParser.requestBodyValueLimit)
        #expect(JSVReader.readList(atLimit + ",1") == nil)
        #expect(JSVReader.read("[" + atLimit + "]") == nil)
    }
}
