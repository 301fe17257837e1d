import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Rules of `/types/php` the golden files show only in passing: the type map, a request class,
/// the namespace line, and that text from metadata or a query never becomes PHP.
@Suite struct PhpGeneratorTests {
    static let metadata = try! MetadataTypes(json: JSONParser().parse(#"""
    {"types":[
      {"name":"Tag","namespace":"Demo","description":"ends */ here","attributes":[{"name":"Api","constructorArgs":[{"type":"String","value":"?><?php system('id'); ?>"}]}],
       "properties":[{"name":"Name","type":"String","namespace":"System"}]},
      {"name":"Colour","namespace":"Demo","isEnum":true,"enumNames":["Red","Dark"],"enumMemberValues":["red","it's"]}
    ],"operations":[
      {"request":{"name":"GetTag","namespace":"Demo","implements":[{"name":"IGet","namespace":"ServiceStack"}],
        "properties":[{"name":"Id","type":"Int32","namespace":"System","isValueType":true},
                      {"name":"Names","type":"List`1","namespace":"System.Collections.Generic","genericArgs":["String"]},
                      {"name":"When","type":"Nullable`1","namespace":"System","isValueType":true,"genericArgs":["DateTime"]}]},
       "response":{"name":"Tag","namespace":"Demo","properties":[{"name":"Name","type":"String","namespace":"System"}]},
       "routes":[{"path":"/tags/{Id}","verbs":"GET"}],
       "returnType":{"name":"Tag","namespace":"Demo"}}
    ]}
    """#).root)

    static func php(_ query: [(String, String)]) -> String {
        PhpGenerator(metadata: metadata).render(
            query: query, date: DateTimeValue(parsing: "2026-01-01T00:00:00Z")!, baseURL: "http://localhost")
    }

    /// .NET types as PHP names them: a member's list as `array<T>`, a list inside a dictionary
    /// as `T[]`, a dictionary's key `string` unless it is one, `Nullable<T>` as `T`.
    @Test func typeMap() {
        let map = PhpTypeMap()
        #expect(map.name(of: TypeReference(type: "List`1", genericArgs: ["Poco"])) == "array<Poco>")
        #expect(map.name(of: TypeReference(type: "Dictionary`2", genericArgs: ["String", "List<Poco>"])) == "array<string,Poco[]>")
        #expect(map.name(of: TypeReference(type: "Dictionary`2", genericArgs: ["Int32", "String"])) == "array<string,string>")
        #expect(map.name(of: TypeReference(type: "Nullable`1", genericArgs: ["TimeSpan"])) == "DateInterval")
        #expect(map.name(of: TypeReference(type: "KeyValuePair`2", genericArgs: ["String", "String"])) == "KeyValuePair<string, string>")
        #expect(map.name(of: TypeReference(type: "Byte[]", genericArgs: [])) == "ByteArray")
        #expect(map.name(of: TypeReference(type: "Int64[]", genericArgs: [])) == "int[]")
        #expect(map.className("QueryDb`2", arity: 2) == "QueryDb2")
        #expect(PhpTypeMap(conflicts: ["HelloBase`1"]).className("HelloBase`1", arity: 1) == "HelloBase1")
    }

    /// A request: its route, `#[Returns]`, `IReturn` and marker interfaces, promoted members with
    /// their defaults, conversions for what JSON cannot carry, and the three request methods.
    @Test func requestClass() {
        let text = Self.php([("IncludeTypes", "GetTag"), ("WithoutOptions", "true")])
        #expect(text.hasSuffix("""
            // @Route("/tags/{Id}", "GET")
            #[Returns('Tag')]
            class GetTag implements IReturn, IGet, JsonSerializable
            {
                public function __construct(
                    /** @var int */
                    public int $id=0,
                    /** @var array<string>|null */
                    public ?array $names=null,
                    /** @var DateTime|null */
                    public ?DateTime $when=null
                ) {
                }

                /** @throws Exception */
                public function fromMap($o): void {
                    if (isset($o['id'])) $this->id = $o['id'];
                    if (isset($o['names'])) $this->names = JsonConverters::fromArray('string', $o['names']);
                    if (isset($o['when'])) $this->when = JsonConverters::from('DateTime', $o['when']);
                }
                \("")
                /** @throws Exception */
                public function jsonSerialize(): mixed
                {
                    $o = [];
                    if (isset($this->id)) $o['id'] = $this->id;
                    if (isset($this->names)) $o['names'] = JsonConverters::toArray('string', $this->names);
                    if (isset($this->when)) $o['when'] = JsonConverters::to('DateTime', $this->when);
                    return empty($o) ? new class(){} : $o;
                }
                public function getTypeName(): string { return 'GetTag'; }
                public function getMethod(): string { return 'GET'; }
                public function createResponse(): mixed { return new Tag(); }
            }


            """))
    }

    /// `dtos` unless the query names a namespace; an empty one leaves the file in the global namespace.
    @Test func namespaceLine() {
        #expect(Self.php([]).hasPrefix("<?php namespace dtos;\n/* Options:\n"))
        #expect(Self.php([("GlobalNamespace", "App")]).hasPrefix("<?php namespace App;\n"))
        #expect(Self.php([("GlobalNamespace", "")]).hasPrefix("<?php\n"))
        #expect(Self.php([("WithoutOptions", "true")]).hasPrefix("<?php namespace dtos;\n\nuse DateTime;\n"))
    }

    /// Neither a query nor metadata can write PHP: header values stay in the comment, a
    /// namespace and imports are names or nothing, `?>` never ends a line comment, `*/` never
    /// ends a doc comment, and string values are quoted.
    @Test func textNeverBecomesCode() {
        let query = [
            ("GlobalNamespace", "a;system('id')"), ("BaseUrl", "*/ system('id'); /*"),
            ("DefaultImports", "Foo\\Bar,x;system('id')"), ("AddDescriptionAsComments", "true"),
        ]
        let text = Self.php(query)
        #expect(text.hasPrefix("<?php namespace a_system__id__;\n"))
        #expect(!text.contains("*/ system"))
        #expect(text.contains("\nuse Foo\\Bar;\n"))
        #expect(!text.contains("use x;system"))
        #expect(text.contains("// @Api(\"? ><?php system('id'); ? >\")\n"))
        #expect(text.contains("/** @description ends * / here */\n"))
        #expect(text.contains("    case Dark = 'it\\'s';\n"))
    }
}
