import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The `/types/swift` options and header block (docs/servicestack.md#generated-dtos), byte for byte.
@Suite struct SwiftHeaderTests {
    /// The native-types defaults techstacks.io and test.servicestack.net report in their headers.
    static let hostConfig: JSONObject = [
        "baseUrl": "https://techstacks.io", "addModelExtensions": true, "addServiceStackTypes": true,
        "makePropertiesOptional": false, "excludeGenericBaseTypes": false, "addResponseStatus": false,
        "addDescriptionAsComments": true, "initializeCollections": true,
    ]

    private func header(_ query: [(String, String)], swiftVersion: String = "5.0") -> String {
        let options = NativeTypesOptions(query: query.map { (name: $0.0, value: $0.1) }, config: Self.hostConfig)
        return SwiftHeader(swiftVersion: swiftVersion).render(options, date: DateTimeValue(parsing: "2024-10-21T14:05:14Z")!,
                                                              baseURL: "https://techstacks.io")
    }

    /// The header of ServiceStack.Swift's own TechStacks.dtos.swift, regenerated from its options.
    @Test func reproducesAPublishedHeader() {
        let excluded = "Hello,HelloResponse,Authenticate,AuthenticateResponse,AssignRoles,AssignRolesResponse,UnAssignRoles,UnAssignRolesResponse,Ping,ConvertSessionToToken,GetAccessToken"
        #expect(header([("ExcludeTypes", excluded)]) == """
        /* Options:
        Date: 2024-10-21 14:05:14
        SwiftVersion: 5.0
        Version: 8.41
        Tip: To override a DTO option, remove "//" prefix before updating
        BaseUrl: https://techstacks.io

        //BaseClass: 
        //AddModelExtensions: True
        //AddServiceStackTypes: True
        //MakePropertiesOptional: True
        //IncludeTypes: 
        ExcludeTypes: \(excluded)
        //ExcludeGenericBaseTypes: False
        //AddResponseStatus: False
        //AddImplicitVersion: 
        //AddDescriptionAsComments: True
        //InitializeCollections: True
        //TreatTypesAsStrings: 
        //DefaultImports: Foundation,ServiceStack
        */

        """)
    }

    @Test func givenOptionsLoseTheirCommentAndShowTheirValue() {
        let lines = header([("addresponsestatus", "true"), ("MakePropertiesOptional", "false"), ("IncludeTypes", ""),
                            ("ExcludeTypes", "QueryResponse`1, QueryBase`1"), ("ExcludeTypes", "QueryBase`1"),
                            ("AddImplicitVersion", "2"), ("BaseUrl", "https://api.example.org"), ("DefaultImports", "Foundation")])
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[5] == "BaseUrl: https://api.example.org")
        #expect(lines.contains("AddResponseStatus: True"))
        #expect(lines.contains("MakePropertiesOptional: False"), "given, the forced default no longer applies")
        #expect(lines.contains("IncludeTypes: "), "given empty: no comment, and the space stays")
        #expect(lines.contains("ExcludeTypes: QueryResponse`1,QueryBase`1,QueryBase`1"), "repeats add, duplicates kept")
        #expect(lines.contains("AddImplicitVersion: 2"))
        #expect(lines.contains("DefaultImports: Foundation"))
        #expect(lines.contains("//InitializeCollections: True"))
    }

    @Test func optionValuesForTheGenerator() {
        let options = NativeTypesOptions(query: [(name: "IncludeTypes", value: " Hello.* ,{Tech}"), (name: "WITHOUTOPTIONS", value: "")],
                                         config: ["makePropertiesOptional": false, "defaultImports": ["Foundation"]])
        #expect(options.list("includeTypes") == ["Hello.*", "{Tech}"])
        #expect(options.flag("MakePropertiesOptional"), "Swift forces it on unless the query sets it")
        #expect(options.list("DefaultImports") == ["Foundation"], "the host's imports win over Swift's")
        #expect(options.withoutOptions)
        #expect(options.text("BaseClass") == nil && !options.flag("AddResponseStatus"))
    }

    /// A value cannot leave its line or close the comment early.
    @Test func valuesStayOnTheirLine() {
        let text = header([("IncludeTypes", "Hello\n*/\nimport Evil /*"), ("BaseUrl", "http://x/\r\ny")])
        #expect(text.contains("\nIncludeTypes: Hello * / import Evil / *\n"))
        #expect(text.contains("\nBaseUrl: http://x/ y\n"), "a CRLF is one line break")
        #expect(text.components(separatedBy: "*/").count == 2)
    }
}
