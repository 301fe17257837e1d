import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Serialization rules of docs/servicestack.md#serialization on a small metadata document: inheritance, generics, enums,
/// DataMember names, defaults, dialects.
@Suite struct SerializationTests {
    static let metadata: MetadataTypes = {
        let json = try! JSONParser().parse(#"""
        {"types":[
          {"name":"Entity","namespace":"Demo","implements":[],"properties":[{"name":"Id","type":"Int64","isValueType":true}]},
          {"name":"Technology","namespace":"Demo","inherits":{"name":"Entity","namespace":"Demo"},"implements":[],"properties":[
            {"name":"Name","type":"String"},{"name":"Tier","type":"TechnologyTier","isValueType":true,"isEnum":true},
            {"name":"Created","type":"DateTime","isValueType":true},{"name":"Alias","type":"String","dataMember":{"name":"alias_name"}},
            {"name":"Tags","type":"List`1","genericArgs":["String"]},{"name":"ViewCount","type":"Nullable`1","genericArgs":["Int32"]}]},
          {"name":"TechnologyTier","namespace":"Demo","implements":[],"isEnum":true,"enumNames":["ProgrammingLanguage","Client","Server"]},
          {"name":"QueryResponse`1","namespace":"ServiceStack","genericArgs":["T"],"implements":[],"properties":[
            {"name":"Offset","type":"Int32","isValueType":true},{"name":"Total","type":"Int32","isValueType":true},
            {"name":"Results","type":"List`1","genericArgs":["T"]},{"name":"Meta","type":"Dictionary`2","genericArgs":["String","String"]},
            {"name":"ResponseStatus","type":"ResponseStatus"}]}
        ],"operations":[
          {"request":{"name":"FindTechnologies","namespace":"Demo","implements":[],"properties":[{"name":"Name","type":"String"}]},
           "returnType":{"name":"QueryResponse`1","namespace":"ServiceStack","genericArgs":["Technology"]},"routes":[{"path":"/technology/search"}]}
        ]}
        """#).root
        return try! MetadataTypes(json: json)
    }()

    let catalog = TypeCatalog(metadata: SerializationTests.metadata)

    private func write(_ value: DTOValue, _ shape: ValueShape, _ settings: SerializerSettings) -> String {
        String(decoding: DTOWriter(catalog: catalog, settings: settings).bytes(value, as: shape), as: UTF8.self)
    }

    private var technology: DTOValue {
        .object(DTOObject([("Name", .string("Go <fast> & 'simple'")), ("Id", .number(JSONNumber(18))), ("Tier", .enumMember("ProgrammingLanguage")),
                           ("Alias", .string("golang")), ("Created", .dateTime(DateTimeValue(millisecondsSinceEpoch: 978_307_200_000)))]))
    }

    @Test func baseClassFirstDeclaredOrderEnumsByNameDefaultsWritten() {
        let text = write(technology, .object(.named("Technology", [])), SerializerSettings(dialect: .serviceStackText))
        #expect(text == #"{"id":18,"name":"Go <fast> & 'simple'","tier":"ProgrammingLanguage","created":"\/Date(978307200000)\/","alias_name":"golang","tags":[]}"#)
        let unset = write(.object(DTOObject()), .object(.named("Technology", [])), SerializerSettings(dialect: .serviceStackText, emitEmptyCollections: false))
        #expect(unset == #"{"id":0,"tier":"ProgrammingLanguage","created":"\/Date(-62135596800000-0000)\/"}"#)
    }

    @Test func systemTextJsonWritesISODatesAndEscapes() {
        let text = write(technology, .object(.named("Technology", [])), SerializerSettings(dialect: .systemTextJson))
        #expect(text == #"{"id":18,"name":"Go \u003Cfast\u003E \u0026 \u0027simple\u0027","tier":"ProgrammingLanguage","created":"2001-01-01T00:00:00Z","alias_name":"golang","tags":[]}"#)
        let unset = write(.object(DTOObject()), .object(.named("Technology", [])), SerializerSettings(dialect: .systemTextJson, emitEmptyCollections: false))
        #expect(unset.contains(#""created":"0001-01-01T00:00:00""#))
    }

    @Test func genericResponsesAreInstantiated() throws {
        let shape = catalog.shape(of: try #require(Self.metadata.operations.first?.returnType).reference)
        #expect(shape == .object(.named("QueryResponse", [.named("Technology", [])])))
        let response = DTOValue.object(DTOObject([("Total", .number(JSONNumber(1))), ("Results", .list([technology]))]))
        let text = write(response, shape, SerializerSettings(dialect: .serviceStackText))
        #expect(text.hasPrefix(#"{"offset":0,"total":1,"results":[{"id":18,"name":"#))
        #expect(text.hasSuffix(#""tags":[]}],"meta":{}}"#))
        let error = ServiceOperation(metadata: Self.metadata.operations[0], coercion: ValueCoercion(catalog: catalog), behaviour: EchoBehaviour(),
                                     dialect: .serviceStackText, serviceClass: "TechnologyServices").errorWrapper
        #expect(error == shape)
    }

    @Test func pascalCaseKeepsDataMemberNamesAndMapKeys() {
        let value = DTOValue.object(DTOObject([("Alias", .string("a")), ("Tags", .list([.string("x")]))]))
        let text = write(value, .object(.named("Technology", [])), SerializerSettings(dialect: .serviceStackText, casing: .pascalCase, emitEmptyCollections: false))
        #expect(text == #"{"Id":0,"Tier":"ProgrammingLanguage","Created":"\/Date(-62135596800000-0000)\/","alias_name":"a","Tags":["x"]}"#)
    }

    @Test func enumsBindByNameOrNumberAndRejectOthers() {
        let coercion = ValueCoercion(catalog: catalog)
        guard case .object(let reference) = catalog.shape(of: .named("Technology", [])), let type = catalog.object(reference),
              let tier = type.property(named: "TIER") else { Issue.record("no Tier"); return }
        #expect(coercion.fromText("server", as: tier.shape) == .enumMember("Server"))
        #expect(coercion.fromText("1", as: tier.shape) == .enumMember("Client"))
        #expect(coercion.fromText("Cloud", as: tier.shape) == nil)
    }
}

extension SerializationTests {
    @Test func aResponseStatusWithoutCodeOrMessageIsStillValidJSON() throws {
        let writer = DTOWriter(catalog: catalog, settings: SerializerSettings(dialect: .serviceStackText))
        let status = DTOValue.object(DTOObject([("Errors", .list([.object(DTOObject([("ErrorCode", .string("E")), ("Message", .string("m"))]))]))]))
        let text = String(decoding: writer.bytes(status, as: .responseStatus), as: UTF8.self)
        #expect(text == #"{"errors":[{"errorCode":"E","message":"m","meta":{}}],"meta":{}}"#)
        _ = try JSONParser().parse(text)
    }
}

extension SerializationTests {
    @Test func membersBindTheSameWhateverTheirOrder() throws {
        let coercion = ValueCoercion(catalog: catalog)
        let shape = ValueShape.object(.named("Technology", []))
        // Rows of a data set usually list members in declaration order; the lookup tries the
        // next property first, and must not depend on it.
        let rows = [#"{"id":1,"name":"Go","tier":"Server","alias_name":"golang","viewCount":3}"#,
                    #"{"viewCount":3,"unknown":true,"alias_name":"golang","TIER":"Server","Name":"Go","Id":1}"#,
                    #"{"name":"Go","id":1,"viewCount":3,"tier":"Server","alias_name":"golang"}"#]
        for text in rows {
            guard case .object(let row)? = coercion.fromJSON(try JSONParser().parse(text).root, as: shape) else {
                Issue.record("\(text) did not bind")
                continue
            }
            #expect(row["Id"] == .number(JSONNumber(1)), "\(text)")
            #expect(row["Name"] == .string("Go"), "\(text)")
            #expect(row["Tier"] == .enumMember("Server"), "\(text)")
            #expect(row["Alias"] == .string("golang"), "\(text)")
            #expect(row["ViewCount"] == .number(JSONNumber(3)), "\(text)")
        }
    }

    @Test func aSharedSpellingMeansTheFirstPropertyWhateverPositionIsExpected() throws {
        // `Id` and `ID` are both `id` in camelCase: the first declared answers to it.
        let json = try JSONParser().parse(#"""
        {"types":[
          {"name":"Pair","namespace":"Demo","implements":[],"properties":[
            {"name":"Id","type":"Int64","isValueType":true},{"name":"Name","type":"String"},{"name":"ID","type":"String"}]}
        ],"operations":[]}
        """#).root
        let catalog = TypeCatalog(metadata: try MetadataTypes(json: json))
        guard case .object(let reference) = catalog.shape(of: .named("Pair", [])), let type = catalog.object(reference) else {
            Issue.record("no Pair")
            return
        }
        #expect(type.properties.map(\.camelCaseName) == ["id", "name", "id"])
        for expected in 0...3 {
            #expect(type.position(ofPropertyNamed: "id", expected: expected) == 0)
        }
        #expect(type.position(ofPropertyNamed: "ID", expected: 0) == 2)
    }
}
