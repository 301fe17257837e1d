import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The scalar formats of docs/servicestack.md#request-binding, docs/servicestack.md#serialization, and the text forms binding reads.
@Suite struct ValueTests {
    @Test(arguments: [
        ("/Date(978307200000)/", "/Date(978307200000)/", "2001-01-01T00:00:00Z"),
        ("\\/Date(978307200000-0000)\\/", "/Date(978307200000-0000)/", "2001-01-01T00:00:00"),
        ("/Date(978307200000+0130)/", "/Date(978307200000+0130)/", "2001-01-01T01:30:00+01:30"),
        ("2001-01-01T00:00:00+00:00", "/Date(978307200000)/", "2001-01-01T00:00:00Z"),
        ("2025-01-01T12:00:00.1234567Z", "/Date(1735732800123)/", "2025-01-01T12:00:00.1234567Z"),
        ("2025-01-01T12:00:00.5", "/Date(1735732800500-0000)/", "2025-01-01T12:00:00.5"),
        ("2001-01-01", "/Date(978307200000-0000)/", "2001-01-01T00:00:00"),
        ("/Date(-62135596800000)/", "/Date(-62135596800000)/", "0001-01-01T00:00:00Z"),
        ("Date(978307200000)", "/Date(978307200000)/", "2001-01-01T00:00:00Z"),
    ])
    func datesParseAndWriteInBothDialects(input: String, wcf: String, iso: String) throws {
        let date = try #require(DateTimeValue(parsing: input))
        #expect(date.wcfText == wcf)
        #expect(date.isoText == iso)
    }

    @Test func invalidDatesAreRejected() {
        for text in ["2001-13-01", "2001-02-30T00:00:00", "/Date(abc)/", "yesterday", "2001-01-01T25:00:00"] {
            #expect(DateTimeValue(parsing: text) == nil, "\(text)")
        }
        #expect(DateTimeValue(parsing: "2025-11-21T22:15:03Z")?.dotNetDefaultText == "11/21/2025 10:15:03 PM")
        #expect(DateTimeValue(parsing: "2025-01-02T00:05:00Z")?.dotNetDefaultText == "1/2/2025 12:05:00 AM")
    }

    @Test(arguments: [("PT1H", "PT1H"), ("PT0S", "PT0S"), ("P1DT2H", "P1DT2H"), ("PT1.5S", "PT1.5S"), ("PT90M", "PT1H30M"),
                      ("-PT1S", "-PT1S"), ("01:00:00", "PT1H"), ("1.02:03:04.5", "P1DT2H3M4.5S"), ("P2W", "P14D")])
    func timeSpansReadXSDAndConstantForms(input: String, xsd: String) throws {
        #expect(try #require(TimeSpanValue(parsing: input)).xsdText == xsd)
    }

    @Test func timeSpanRejectsNonsense() {
        for text in ["P", "PT", "1H", "PXS", "25:00:00"] { #expect(TimeSpanValue(parsing: text) == nil, "\(text)") }
    }

    @Test(arguments: [("Id", "id"), ("UInt", "uInt"), ("ID", "id"), ("URLPath", "urlPath"), ("ResponseStatus", "responseStatus"),
                      ("name", "name"), ("IPAddress", "ipAddress"), ("A", "a")])
    func camelCaseMatchesTheDotNetSerializers(name: String, camel: String) {
        #expect(PropertyShape.camelCase(name) == camel)
    }

    @Test func jsvReaderHandlesListsMapsAndQuoting() {
        #expect(JSVReader.readList("A,B,C") == [.text("A"), .text("B"), .text("C")])
        #expect(JSVReader.readList("[A,B,C]") == [.text("A"), .text("B"), .text("C")])
        #expect(JSVReader.readList(#""a,b","c""d",e"#) == [.text("a,b"), .text(#"c"d"#), .text("e")])
        #expect(JSVReader.read("{A:D,B:{C:[1,2]}}") == .map([("A", .text("D")), ("B", .map([("C", .list([.text("1"), .text("2")]))]))]))
        #expect(JSVReader.read("{A:D") == nil)
        #expect(JSVReader.read(String(repeating: "[", count: 100)) == nil)
    }

    @Test func numbersAreNormalisedForTheirType() {
        #expect(ValueCoercion.number("3.0", .decimal)?.literal == "3.0")
        #expect(ValueCoercion.number("1.1", .single)?.literal == "1.1")
        #expect(ValueCoercion.number("2.0", .double)?.literal == "2")
        #expect(ValueCoercion.number("18446744073709551615", .uint64)?.literal == "18446744073709551615")
        #expect(ValueCoercion.number("1.5", .int32) == nil)
        #expect(ValueCoercion.number("2147483648", .int32) == nil)
        #expect(ValueCoercion.number("NaN", .double) == nil)
        #expect(ValueCoercion.guid("{25892E17-80F6-415F-9C65-7395632F0223}") == "25892e1780f6415f9c657395632f0223")
    }

    /// JSON integers bound to integral properties keep their literal when it is already the
    /// normal form, and are normalised (or refused) as text would be otherwise.
    @Test func jsonIntegersAreNormalisedLikeText() throws {
        let coercion = ValueCoercion(catalog: TypeCatalog(metadata: try MetadataTypes(json: [:])))
        func bound(_ literal: String, _ kind: NumberKind) -> DTOValue? { coercion.fromJSON(.number(JSONNumber(literal: literal)), as: .number(kind)) }
        #expect(bound("42", .int32) == .number(JSONNumber(literal: "42")))
        #expect(bound("-7", .int64) == .number(JSONNumber(literal: "-7")))
        #expect(bound("-0", .int32) == .number(JSONNumber(literal: "0")))
        #expect(bound("1e2", .int32) == .number(JSONNumber(literal: "100")))
        #expect(bound("256", .byte) == nil)
        #expect(bound("-1", .uint32) == nil)
        #expect(bound("123456789012345678901", .int64) == nil)
        #expect(ValueCoercion.plainInteger("0") == 0 && ValueCoercion.plainInteger("007") == nil && ValueCoercion.plainInteger("-0") == nil)
    }

    @Test func systemTextJsonEscapesLikeItsDefaultEncoder() {
        var out: [UInt8] = []
        JSONValue.encodeString("it's <b>&+`ü😀\u{7F}\n", into: &out, escaping: .htmlSafeASCII)
        #expect(String(decoding: out, as: UTF8.self) == #""it\u0027s \u003Cb\u003E\u0026\u002B\u0060\u00FC\uD83D\uDE00\u007F\n""#)
        out = []
        JSONValue.encodeString("Hello, üöäß!", into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #""Hello, üöäß!""#)
    }

    @Test func jsconfigScopes() {
        let host = SerializerSettings(dialect: .serviceStackText)
        #expect(host.applying(jsconfig: "EmitCamelCaseNames:false").casing == .camelCase)
        #expect(host.applying(jsconfig: "EmitPascalCaseNames:true").casing == .pascalCase)
        #expect(host.applying(jsconfig: "epcn,edv").excludeDefaultValues)
        #expect(host.applying(jsconfig: "dh:iso8601").dates == .iso8601)
    }

    @Test func displayNamesSplitPascalCase() {
        #expect(ValidationRule.displayName("EmailAddress") == "Email Address")
        #expect(ValidationRule.displayName("URLPath") == "URL Path")
        #expect(ValidationRule.displayName("Age") == "Age")
    }
}
