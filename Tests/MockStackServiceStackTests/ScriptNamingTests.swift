import Testing
@testable import MockStackServiceStack

/// How the script generators spell .NET names, each case taken from the real generated files
/// (servicestack-python's and servicestack-client's test DTOs).
@Suite struct ScriptNamingTests {
    @Test(arguments: [("Id", "id"), ("VendorName", "vendorName"), ("HTTPMethod", "httpMethod"), ("MP3", "mP3"), ("ID", "id"),
                      ("camelUPPER", "camelUPPER"), ("", ""), ("X", "x"), ("Ñame", "Ñame"), ("ÀB", "ÀB")])
    func camelCase(name: String, expected: String) {
        #expect(NameCase.camel(name) == expected)
    }

    @Test(arguments: [("OrganizationId", "organization_id"), ("ImageUrl", "image_url"), ("MP3", "m_p3"), ("camelUPPER", "camel_u_p_p_e_r"),
                      ("ProviderOAuthAccess", "provider_o_auth_access"), ("Value123", "value123"), ("A$B", "a_$_b"), ("Ñame", "_ñame")])
    func snakeCase(name: String, expected: String) {
        #expect(NameCase.snake(name) == expected)
    }

    @Test(arguments: [("Is", "is_"), ("From", "from_"), ("Type", "type"), ("Int", "int_"), ("List", "list"), ("Slug", "slug")])
    func pythonMembersStayClearOfReservedWords(name: String, expected: String) {
        #expect(PythonTypeMap.memberName(name) == expected)
    }

    @Test(arguments: [("Value1", "VALUE1"), ("MP3", "M_P3"), ("UPPER", "UPPER"), ("camelUPPER", "CAMEL_U_P_P_E_R"), ("Global", "GLOBAL_"),
                      ("dpm_2", "DPM_2"), ("SoftwareInfrastructure", "SOFTWARE_INFRASTRUCTURE")])
    func pythonEnumMembers(name: String, expected: String) {
        #expect(PythonTypeMap.enumMemberName(name) == expected)
    }

    @Test func pythonTypes() {
        let map = PythonTypeMap(conflicts: ["QueryDb`2"])
        func python(_ type: String, _ arguments: [String] = []) -> String { map.name(of: TypeReference(type: type, genericArgs: arguments)) }
        #expect(python("Int32") == "int")
        #expect(python("Byte[]") == "bytes")
        #expect(python("String[]") == "List[str]")
        #expect(python("Nullable`1", ["DateTime"]) == "Optional[datetime.datetime]")
        #expect(python("List`1", ["Nullable<Int32>"]) == "List[int]")
        #expect(python("Dictionary`2", ["String", "List<Poco>"]) == "Dict[str, List[Poco]]")
        #expect(python("Dictionary`2", ["Guid", "String"]) == "Dict[str, str]")
        #expect(python("Dictionary`2", ["Int32", "String"]) == "Dict[int, str]")
        #expect(python("QueryDb`2", ["Technology", "TechnologyView"]) == "QueryDb2[Technology, TechnologyView]")
        #expect(python("QueryResponse`1", ["Post"]) == "QueryResponse[Post]")
        #expect(python("Decimal") == "Decimal")
        #expect(python("TimeSpan") == "datetime.timedelta")
    }

    @Test func typeScriptTypes() {
        let map = TypeScriptTypeMap(conflicts: ["QueryDb`1", "QueryDb`2"])
        func typeScript(_ type: String, _ arguments: [String] = []) -> String { map.name(of: TypeReference(type: type, genericArgs: arguments)).name }
        #expect(typeScript("Int64") == "number")
        #expect(typeScript("Byte[]") == "string")
        #expect(typeScript("Poco[]") == "Poco[]")
        #expect(map.name(of: TypeReference(type: "Nullable`1", genericArgs: ["Int32"])) == ("number", true))
        #expect(typeScript("List`1", ["String"]) == "string[]")
        // Today's generator writes every index without a space (techstacks.io's dtos.ts, 10.09);
        // the 2021 files had one at the top level.
        #expect(typeScript("Dictionary`2", ["String", "String"]) == "{ [index:string]: string; }")
        #expect(typeScript("Dictionary`2", ["String", "List<Dictionary<String,Poco>>"]) == "{ [index:string]: { [index:string]: Poco; }[]; }")
        #expect(typeScript("QueryDb`2", ["Technology", "TechnologyView"]) == "QueryDb_2<Technology, TechnologyView>")
        #expect(typeScript("KeyValuePair`2", ["String", "String"]) == "KeyValuePair<string, string>")
        #expect(typeScript("'TKey") == "TKey")
    }
}
