import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The `autoQuery` behaviour end to end without sockets: a small TechStacks-shaped app.
@Suite struct AutoQueryBehaviourTests {
    static let metadata = #"""
    {"types":[
      {"name":"QueryBase","namespace":"ServiceStack","implements":[],"properties":[
        {"name":"Skip","type":"Nullable`1","genericArgs":["Int32"]},{"name":"Take","type":"Nullable`1","genericArgs":["Int32"]},
        {"name":"OrderBy","type":"String"},{"name":"OrderByDesc","type":"String"},{"name":"Include","type":"String"},{"name":"Fields","type":"String"},
        {"name":"Meta","type":"Dictionary`2","genericArgs":["String","String"]}]},
      {"name":"QueryDb`2","namespace":"ServiceStack","genericArgs":["From","Into"],"inherits":{"name":"QueryBase","namespace":"ServiceStack"},"implements":[]},
      {"name":"QueryResponse`1","namespace":"ServiceStack","genericArgs":["T"],"implements":[],"properties":[
        {"name":"Offset","type":"Int32","isValueType":true},{"name":"Total","type":"Int32","isValueType":true},
        {"name":"Results","type":"List`1","genericArgs":["T"]},{"name":"Meta","type":"Dictionary`2","genericArgs":["String","String"]},
        {"name":"ResponseStatus","type":"ResponseStatus"}]},
      {"name":"TechnologyTier","namespace":"Demo","implements":[],"isEnum":true,"enumNames":["ProgrammingLanguage","Client","Server","Data"]},
      {"name":"Technology","namespace":"Demo","implements":[],"properties":[
        {"name":"Id","type":"Int64","isValueType":true,"isPrimaryKey":true},{"name":"Name","type":"String"},{"name":"VendorName","type":"String"},
        {"name":"Tier","type":"TechnologyTier","isValueType":true,"isEnum":true},{"name":"ViewCount","type":"Int32","isValueType":true}]},
      {"name":"TechnologyView","namespace":"Demo","implements":[],"properties":[
        {"name":"Id","type":"Nullable`1","genericArgs":["Int64"]},{"name":"Name","type":"String"},{"name":"VendorName","type":"String"},
        {"name":"Tier","type":"Nullable`1","genericArgs":["TechnologyTier"]},{"name":"ViewCount","type":"Nullable`1","genericArgs":["Int32"]}]}
    ],"operations":[
      {"request":{"name":"FindTechnologies","namespace":"Demo","inherits":{"name":"QueryDb`2","namespace":"ServiceStack","genericArgs":["Technology","TechnologyView"]},"implements":[],
        "properties":[{"name":"Ids","type":"List`1","genericArgs":["Int64"]},{"name":"Name","type":"String"},{"name":"VendorName","type":"String"},{"name":"NameContains","type":"String"}]},
       "returnType":{"name":"QueryResponse`1","namespace":"ServiceStack","genericArgs":["TechnologyView"]},"routes":[{"path":"/technology/search"}]}
    ]}
    """#

    static let data = #"""
    [{"id":1,"name":"ServiceStack","vendorName":"ServiceStack","tier":"Server","viewCount":300},
     {"id":7,"name":"AngularJS","vendorName":"Google","tier":"Client","viewCount":900},
     {"id":18,"name":"Go","vendorName":"Google","tier":"ProgrammingLanguage","viewCount":800},
     {"id":77,"name":"Protocol Buffers","vendorName":"Google","tier":"Server","viewCount":700},
     {"id":3,"name":"Redis","vendorName":"Redis Labs","tier":"Data","viewCount":950}]
    """#

    static let app: ServiceStackApp = {
        let manifest = #"""
        {"kind":"servicestack","metadata":"metadata.json","host":{"serializer":"system-text-json"},
         "operations":{"FindTechnologies":{"behaviour":"autoQuery","data":"technologies.json","term":"or","maxLimit":500,"includeTotal":true}}}
        """#
        let source = InMemoryFixtureSource(files: ["techstacks/app.json": manifest, "techstacks/metadata.json": metadata, "techstacks/technologies.json": data])
        return try! AppLoader(kinds: [ServiceStackAppKind()]).load(from: source)[0] as! ServiceStackApp
    }()

    private func get(_ target: String) -> HTTPResponse {
        Self.app.respond(to: HTTPRequest(method: .get, target: target))
    }

    @Test func noConditionsOnAnOrQueryFindNothing() {
        #expect(get("/api/FindTechnologies?").text == #"{"offset":0,"total":0,"results":[]}"#)
    }

    @Test func typedAndUntypedParametersPagingOrderingAndFields() {
        let response = get("/technology/search?vendorName=Google&take=2&orderByDesc=ViewCount&fields=Id,Name,VendorName")
        #expect(response.status == 200)
        #expect(response.text == #"{"offset":0,"total":3,"results":[{"id":7,"name":"AngularJS","vendorName":"Google"},{"id":18,"name":"Go","vendorName":"Google"}]}"#)
        // OR: either typed condition matches.
        let either = get("/api/FindTechnologies?name=Redis&NameContains=Buf&fields=id")
        #expect(either.text == #"{"offset":0,"total":2,"results":[{"id":3},{"id":77}]}"#)
        // Untyped conventions over the model's other fields.
        let views = get("/api/FindTechnologies?ViewCountAbove=850&fields=Name&orderBy=-ViewCount")
        #expect(views.text == #"{"offset":0,"total":2,"results":[{"name":"Redis"},{"name":"AngularJS"}]}"#)
        let descending = get("/api/FindTechnologies?vendorName=Google&orderBy=&orderByDesc=ViewCount&fields=id")
        #expect(descending.text == #"{"offset":0,"total":3,"results":[{"id":7},{"id":18},{"id":77}]}"#)
        let ids = get("/api/FindTechnologies?ids=1,18&fields=id")
        #expect(ids.text == #"{"offset":0,"total":2,"results":[{"id":1},{"id":18}]}"#)
    }

    /// AutoQuery drops its own `COUNT(*)` entry where it computes the total, then sets an empty
    /// `meta` to null: the key is left out unless something is in it.
    @Test func anEmptyMetaIsLeftOutWhereTheTotalIsComputed() throws {
        let google = "/api/FindTechnologies?vendorName=Google&fields=id"
        #expect(get(google).text == #"{"offset":0,"total":3,"results":[{"id":7},{"id":18},{"id":77}]}"#)
        #expect(get(google + "&include=Total").text == #"{"offset":0,"total":3,"results":[{"id":7},{"id":18},{"id":77}]}"#)
        // `COUNT(*)` asked for by that name keeps its entry; other aggregates keep theirs.
        #expect(get(google + "&include=COUNT(*)").text == #"{"offset":0,"total":3,"results":[{"id":7},{"id":18},{"id":77}],"meta":{"COUNT(*)":"3"}}"#)
        #expect(get(google + "&include=Total,MAX(ViewCount)").text
                == #"{"offset":0,"total":3,"results":[{"id":7},{"id":18},{"id":77}],"meta":{"MAX(ViewCount)":"900"}}"#)

        // Without `includeTotal`, the total is 0 and `meta` stays, empty, unless the total is asked for.
        let plain = try Self.load(operation: #"{"behaviour":"autoQuery","data":"technologies.json"}"#)
        let answer = { (target: String) in plain.respond(to: HTTPRequest(method: .get, target: target)).text }
        #expect(answer(google) == #"{"offset":0,"total":0,"results":[{"id":7},{"id":18},{"id":77}],"meta":{}}"#)
        #expect(answer(google + "&include=Total") == #"{"offset":0,"total":3,"results":[{"id":7},{"id":18},{"id":77}]}"#)
        #expect(answer(google + "&include=COUNT") == #"{"offset":0,"total":3,"results":[{"id":7},{"id":18},{"id":77}],"meta":{"COUNT(*)":"3"}}"#)
    }

    @Test func queryErrorsAre400InTheQueryResponse() {
        let response = get("/api/FindTechnologies?vendorName=Google&orderBy=Nope")
        #expect(response.status == 400)
        #expect(response.text == #"{"offset":0,"total":0,"responseStatus":{"errorCode":"ArgumentException","message":"Could not find field Nope","errors":[]}}"#)
        let between = get("/api/FindTechnologies?ViewCountBetween=1")
        #expect(between.status == 400)
        #expect(between.text.contains(#""message":"ViewCount requires 2 values""#))
    }

    private static func load(operation: String, extraFiles: [String: String] = [:]) throws(FixtureErrors) -> ServiceStackApp {
        let manifest = #"{"kind":"servicestack","metadata":"metadata.json","operations":{"FindTechnologies":"# + operation + "}}"
        var files = ["techstacks/app.json": manifest, "techstacks/metadata.json": metadata, "techstacks/technologies.json": data]
        for (name, text) in extraFiles { files["techstacks/" + name] = text }
        return try AppLoader(kinds: [ServiceStackAppKind()]).load(from: InMemoryFixtureSource(files: files))[0] as! ServiceStackApp
    }

    private static func problems(operation: String, extraFiles: [String: String] = [:]) -> [String] {
        do {
            _ = try load(operation: operation, extraFiles: extraFiles)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    /// `properties` spell out a typed property's field, comparison and term.
    @Test func declaredPropertiesSetFieldOperatorAndTerm() throws {
        let app = try Self.load(operation: #"{"behaviour":"autoQuery","data":"technologies.json","term":"or","includeTotal":true,"properties":{"Name":{"field":"VendorName","operator":"startsWith","term":"ensure"}}}"#)
        // `name=Goo` is now VendorName LIKE 'Goo%', ANDed to the OR of the rest.
        let response = app.respond(to: HTTPRequest(method: .get, target: "/api/FindTechnologies?name=goo&ids=1,7,18&fields=id"))
        #expect(response.text == #"{"offset":0,"total":2,"results":[{"id":7},{"id":18}]}"#)
        // Without it, name is an exact match of Name, ORed with ids.
        let plain = Self.app.respond(to: HTTPRequest(method: .get, target: "/api/FindTechnologies?name=Redis&ids=1&fields=id"))
        #expect(plain.text == #"{"offset":0,"total":2,"results":[{"id":1},{"id":3}]}"#)
    }

    @Test func manifestMistakesAreReportedWithTheirPointers() {
        let problems = Self.problems(operation: #"{"behaviour":"autoQuery","data":"technologies.json","term":"maybe","properties":{"Nope":{},"Name":{"field":"Colour"},"VendorName":{"operator":"~"}}}"#)
        #expect(problems == [
            "Fixtures/techstacks/app.json:1:143: /operations/FindTechnologies/term: unknown term 'maybe' (expected and, or or ensure)",
            "Fixtures/techstacks/app.json:1:172: /operations/FindTechnologies/properties/Nope: FindTechnologies has no property 'Nope'",
            "Fixtures/techstacks/app.json:1:191: /operations/FindTechnologies/properties/Name/field: Technology has no field 'Colour'",
            "Fixtures/techstacks/app.json:1:226: /operations/FindTechnologies/properties/VendorName/operator: unknown operator '~' "
                + "(expected one of: !=, <, <=, =, >, >=, between, contains, endsWith, in, isNotNull, isNull, like, overlaps, startsWith)",
        ])
    }

    @Test func overlapsNeedsAnArrayField() {
        let problems = Self.problems(operation: #"{"behaviour":"autoQuery","data":"technologies.json","properties":{"Ids":{"field":"Name","operator":"overlaps"}}}"#)
        #expect(problems.count == 1 && problems[0].hasSuffix("/operations/FindTechnologies/properties/Ids/operator: 'overlaps' needs an array field; Name is not one"))
    }

    @Test func rowsThatDoNotFitTheModelAreReportedByLine() {
        let rows = "[\n{\"id\":1,\"name\":\"A\"},\n{\"id\":\"two\",\"name\":\"B\"},\n3\n]\n"
        let problems = Self.problems(operation: #"{"behaviour":"autoQuery","data":"bad.json"}"#, extraFiles: ["bad.json": rows])
        #expect(problems == [
            "Fixtures/techstacks/bad.json:3:1: /1: row 1 is not a Technology: an object whose values fit its properties' types",
            "Fixtures/techstacks/bad.json:4:1: /2: row 2 is not a Technology: an object whose values fit its properties' types",
        ])
        #expect(Self.problems(operation: #"{"behaviour":"autoQuery","data":"bad.json"}"#, extraFiles: ["bad.json": #"{"id":1}"#])
                == ["Fixtures/techstacks/bad.json:1:1: a data set is a JSON array of Technology objects"])
    }
}
