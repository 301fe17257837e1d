import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Single DTOs written as `/types/swift` writes them (spec §13; shapes as in ServiceStack.Swift's
/// generated test files).
@Suite struct SwiftTypeWriterTests {
    static let metadata = try! MetadataTypes(json: JSONParser().parse(#"""
    {"types":[
      {"name":"GetWidgetResponse","namespace":"Demo","implements":[],"properties":[{"name":"Name","type":"String"}]},
      {"name":"TechnologyTier","namespace":"Demo","implements":[],"isEnum":true,"enumNames":["ProgrammingLanguage","Client"]},
      {"name":"EnumWithValues","namespace":"Demo","implements":[],"isEnum":true,"enumNames":["None","Value1"],"enumValues":["0","1"]},
      {"name":"IRegisterStats","namespace":"Demo","implements":[],"isInterface":true,"properties":[]},
      {"name":"EnumFlags","namespace":"Demo","implements":[],"isEnum":true,"attributes":[{"name":"Flags"}],"enumNames":["Value0","Value1","Value123"],"enumValues":["0","1","7"]},
      {"name":"IHasId","namespace":"Demo","implements":[],"isInterface":true,"properties":[{"name":"Id","type":"Int32","isValueType":true}]},
      {"name":"IHasKey","namespace":"Demo","genericArgs":["T"],"implements":[{"name":"IHasId","namespace":"Demo"}],"isInterface":true,
       "properties":[{"name":"Key","type":"T"}]},
      {"name":"Page","namespace":"Demo","implements":[],"properties":[{"name":"Number","type":"Int32","isValueType":true}]},
      {"name":"Page`1","namespace":"Demo","genericArgs":["T"],"implements":[],"properties":[{"name":"Items","type":"List`1","genericArgs":["T"]}]},
      {"name":"Entry","namespace":"Demo","implements":[],"dataContract":{"name":"entry","namespace":"urn:demo"},
       "properties":[{"name":"Id","type":"Int32","isValueType":true,"description":"The key","dataMember":{"order":1,"isRequired":true}},
                     {"name":"Owner","type":"IHasId"},
                     {"name":"Title","type":"String"},
                     {"name":"Body","type":"String","attributes":[{"name":"StringLength","constructorArgs":[{"type":"Int32","value":"2147483647"}]},{"name":"Tag","constructorArgs":[{"type":"String","value":"x"}]}]},
                     {"name":"Count","type":"Nullable`1","genericArgs":["Int32"]},
                     {"name":"Extra","type":"Dictionary"},
                     {"name":"Score","type":"Double","isValueType":true}]},
      {"name":"TechnologyStack","namespace":"Demo","inherits":{"name":"TechnologyStackBase","namespace":"Demo"},"implements":[],"properties":[]},
      {"name":"AllowedAttributes","namespace":"Demo","implements":[],"description":"AllowedAttributes Description",
       "dataContract":{},
       "properties":[{"name":"Range","type":"Double","isValueType":true,"dataMember":{"name":"Aliased"},
                      "attributes":[{"name":"ApiMember","args":[{"name":"Description","type":"String","value":"Range Description"},{"name":"IsRequired","type":"Boolean","value":"true"}]}]},
                     {"name":"Is","type":"String[]"},{"name":"Description","type":"String"},{"name":"Span","type":"Nullable`1","genericArgs":["TimeSpan"]},
                     {"name":"Map","type":"Dictionary`2","genericArgs":["String","List<Int32>"]}]}
    ],"operations":[
      {"request":{"name":"GetWidget","namespace":"Demo","implements":[{"name":"IReturn`1","genericArgs":["GetWidgetResponse"]},{"name":"IGet"},{"name":"IRegisterStats"}],
        "properties":[{"name":"Name","type":"String","isRequired":true,"attributes":[{"name":"Required"}]},{"name":"Id","type":"Int32","isValueType":true},{"name":"Tags","type":"List`1","genericArgs":["String"]}]},
       "returnType":{"name":"GetWidgetResponse","namespace":"Demo"},"routes":[{"path":"/widgets/{Id}","verbs":"GET"}]},
      {"request":{"name":"DeleteWidget","namespace":"Demo","implements":[{"name":"IReturnVoid"},{"name":"IDelete"}],"properties":[{"name":"Id","type":"Int32","isValueType":true}]},
       "returnsVoid":true,"routes":[{"path":"/widgets/{Id}","verbs":"DELETE"}]},
      {"request":{"name":"QueryPosts","namespace":"Demo","inherits":{"name":"QueryDb`1","namespace":"ServiceStack","genericArgs":["Post"]},
        "implements":[{"name":"IReturn`1","genericArgs":["QueryResponse<Post>"]}],
        "properties":[{"name":"Ids","type":"Int32[]","isRequired":true,"attributes":[{"name":"Required"}]},{"name":"OrganizationId","type":"Nullable`1","genericArgs":["Int32"]},{"name":"Is","type":"String[]"}]},
       "returnType":{"name":"QueryResponse`1","namespace":"ServiceStack","genericArgs":["Post"]},"routes":[{"path":"/posts","verbs":"GET"}]}
    ]}
    """#).root)

    private func writer(_ query: [(String, String)] = []) -> SwiftTypeWriter {
        SwiftTypeWriter(options: NativeTypesOptions(query: query.map { (name: $0.0, value: $0.1) },
                                                    config: ["initializeCollections": true, "addDescriptionAsComments": true]),
                        interfaces: ["IRegisterStats", "IHasId", "IHasKey"], conflicts: ["Page"])
    }

    private func type(_ name: String) -> MetadataType { Self.metadata.types.first { $0.name == name }! }

    /// The spec's composed sample, attribute spacing included, with the interface before the verb marker.
    @Test func aRequestWithRouteReturnAndMembers() {
        let operation = Self.metadata.operations[0]
        #expect(writer().writeClass(operation.request, operation: operation) == """
        // @Route("/widgets/{Id}", "GET")
        public class GetWidget : IReturn, IRegisterStats, IGet, Codable
        {
            public typealias Return = GetWidgetResponse

            // @Required()
            public var name:String?

            public var id:Int?
            public var tags:[String] = []

            required public init(){}
        }

        """)
    }

    @Test func aVoidRequest() {
        let operation = Self.metadata.operations[1]
        #expect(writer().writeClass(operation.request, operation: operation) == """
        // @Route("/widgets/{Id}", "DELETE")
        public class DeleteWidget : IReturnVoid, IDelete, Codable
        {
            public var id:Int?

            required public init(){}
        }

        """)
    }

    @Test func descriptionsAttributesNamesAndTypes() {
        #expect(writer().writeClass(type("AllowedAttributes")) == """
        /**
        * AllowedAttributes Description
        */
        // @DataContract
        public class AllowedAttributes : Codable
        {
            // @DataMember(Name="Aliased")
            // @ApiMember(Description="Range Description", IsRequired=true)
            public var Aliased:Double?

            public var `is`:[String] = []
            public var Description:String?
            @TimeSpan public var span:TimeInterval?
            public var map:[String:[Int]] = [:]

            required public init(){}
        }

        """)
        // Collections left uninitialised are optional.
        #expect(writer([("InitializeCollections", "false")]).propertyDeclaration(type("AllowedAttributes").properties[1], in: type("AllowedAttributes")) == "public var `is`:[String]?")
    }

    /// A subclass spells out its coding, as ServiceStack.Swift's TechStacks DTOs show. A
    /// required collection starts empty; so does an AutoQuery request's array under
    /// `InitializeCollections`, while its lists and dictionaries stay unset (techstacks.io's
    /// `QueryPosts`: `ids` and `is` are arrays, `organizationIds` a list).
    @Test func subclassesSpellOutTheirCoding() {
        let operation = Self.metadata.operations[2]
        #expect(writer().writeClass(operation.request, operation: operation) == """
        // @Route("/posts", "GET")
        public class QueryPosts : QueryDb<Post>, IReturn
        {
            public typealias Return = QueryResponse<Post>

            // @Required()
            public var ids:[Int] = []

            public var organizationId:Int?
            public var `is`:[String] = []

            required public init(){ super.init() }

            private enum CodingKeys : String, CodingKey {
                case ids
                case organizationId
                case `is`
            }

            required public init(from decoder: Decoder) throws {
                try super.init(from: decoder)
                let container = try decoder.container(keyedBy: CodingKeys.self)
                ids = try container.decodeIfPresent([Int].self, forKey: .ids) ?? []
                organizationId = try container.decodeIfPresent(Int.self, forKey: .organizationId)
                `is` = try container.decodeIfPresent([String].self, forKey: .`is`) ?? []
            }

            public override func encode(to encoder: Encoder) throws {
                try super.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                if ids.count > 0 { try container.encode(ids, forKey: .ids) }
                if organizationId != nil { try container.encode(organizationId, forKey: .organizationId) }
                if `is`.count > 0 { try container.encode(`is`, forKey: .`is`) }
            }
        }

        """)
        #expect(writer().writeClass(type("TechnologyStack")) == """
        public class TechnologyStack : TechnologyStackBase
        {
            required public init(){ super.init() }

            required public init(from decoder: Decoder) throws {
                try super.init(from: decoder)
            }

            public override func encode(to encoder: Encoder) throws {
                try super.encode(to: encoder)
            }
        }

        """)
    }

    @Test func enumsAndProtocols() {
        #expect(writer().writeEnum(type("TechnologyTier")) == """
        public enum TechnologyTier : String, Codable
        {
            case ProgrammingLanguage
            case Client
        }

        """)
        #expect(writer().writeEnum(type("EnumWithValues")) == "public enum EnumWithValues : Int, Codable\n{\n    case None = 0\n    case Value1 = 1\n}\n")
        #expect(writer().writeProtocol(type("IRegisterStats")) == "public protocol IRegisterStats\n{\n}\n")
    }

    /// `[Flags]` shows as `// @Flags()` over an Int-backed enum with the members' values.
    @Test func flagsEnums() {
        #expect(writer().writeEnum(type("EnumFlags")) == """
        // @Flags()
        public enum EnumFlags : Int, Codable
        {
            case Value0 = 0
            case Value1 = 1
            case Value123 = 7
        }

        """)
    }

    /// A protocol lists the interfaces it extends, its generic parameters as associated types,
    /// and its members followed by a blank line.
    @Test func protocolsExtendAndTakeAssociatedTypes() {
        #expect(writer().writeProtocol(type("IHasKey")) == """
        public protocol IHasKey : IHasId
        {
            associatedtype T

            var key:T? { get set }

        }

        """)
    }

    /// A generic definition constrains its parameters to Codable; a name declared with
    /// several arities gets `_N`.
    @Test func genericDefinitions() {
        #expect(writer().writeClass(type("Page`1")) == """
        public class Page_1<T : Codable> : Codable
        {
            public var items:[T] = []

            required public init(){}
        }

        """)
        #expect(writer().writeClass(type("Page")).hasPrefix("public class Page : Codable\n"))
    }

    /// The data contract with its arguments, member descriptions (no blank line of their own),
    /// an interface-typed member as a comment, marked members followed by a blank line, and
    /// the attributes the metadata does not export (`Tag`) left out.
    @Test func membersMarksAndIgnoredInterfaces() {
        #expect(writer().writeClass(type("Entry")) == """
        // @DataContract(Name="entry", Namespace="urn:demo")
        public class Entry : Codable
        {
            /**
            * The key
            */
            // @DataMember(Order=1, IsRequired=true)
            public var id:Int?

            //owner:IHasId ignored. Swift doesn't support interface properties

            public var title:String?
            // @StringLength(Int32.max)
            public var body:String?

            public var count:Int?
            public var extra:[String:String]?
            public var score:Double?

            required public init(){}
        }

        """)
    }

    /// `MakePropertiesOptional=False`: only nullable values, untyped dictionaries and required
    /// members stay optional (ServiceStack's rule; the result does not compile with
    /// `required public init(){}`, there as here).
    @Test func propertiesMadeNonOptional() {
        let strict = writer([("MakePropertiesOptional", "False")])
        let entry = type("Entry")
        #expect(entry.properties.map { strict.propertyDeclaration($0, in: entry) } == [
            "public var id:Int", "public var owner:IHasId", "public var title:String", "public var body:String",
            "public var count:Int?", "public var extra:[String:String]?", "public var score:Double",
        ])
        let request = Self.metadata.operations[0].request
        #expect(strict.propertyDeclaration(request.properties[0], in: request) == "public var name:String?")
    }
}
