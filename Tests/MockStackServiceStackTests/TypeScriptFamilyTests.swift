import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Rules of the TypeScript family's other files (`/types/typescript.d`, `/types/mjs`,
/// `/types/js`) that the golden files show but do not name.
@Suite struct TypeScriptFamilyTests {
    static func dtos(_ language: DTOLanguage, _ query: String) -> String {
        ScriptGoldenTests.dtos(language, "test", query).text
    }

    @Test func theLanguagesAreNamedByTheirPathsAndServedAsServiceStackServesThem() {
        #expect(DTOLanguage(name: "d.ts") == .typeScriptDeclarations)
        #expect(DTOLanguage(name: "TypeScript.d") == .typeScriptDeclarations)
        #expect(DTOLanguage(name: "mjs") == .mjs && DTOLanguage(name: "js") == .commonJS)
        #expect([DTOLanguage.typeScriptDeclarations, .mjs, .commonJS].map(\.fileExtension) == ["d.ts", "mjs", "js"])
        #expect(DTOLanguage.typeScriptDeclarations.contentType == MediaType.text)
        #expect(DTOLanguage.mjs.contentType == MediaType.javaScript && DTOLanguage.commonJS.contentType == MediaType.javaScript)
    }

    /// An interface cannot hold a value: the declarations start no collection empty, even when
    /// asked, and a required one stays a plain member.
    @Test func declarationsInitialiseNothing() {
        let text = Self.dtos(.typeScriptDeclarations, "IncludeTypes=HelloList,AllCollectionTypes&InitializeCollections=True")
        #expect(text.contains("\ninterface HelloList extends IReturn<ListResult[]>\n{\n    names?: string[];\n}\n"))
        #expect(!text.contains(" = []") && !text.contains(" = {}"))
        #expect(!text.contains("export ") && !text.contains("constructor"))
    }

    /// ServiceStack's module answer to AddResponseStatus is no JavaScript, so it is not read.
    @Test func theModuleIgnoresAddResponseStatus() {
        let text = Self.dtos(.mjs, "IncludeTypes=HelloResponse,Hello&AddResponseStatus=True")
        #expect(!text.contains("AddResponseStatus") && !text.contains("responseType") && !text.contains("ResponseStatus;"))
    }

    /// A request without a response, one returning nothing and one returning a value.
    @Test func createResponseSaysWhatTheRequestReturns() {
        let module = Self.dtos(.mjs, "IncludeTypes=HelloVoid,HelloReturnVoid,HelloString")
        #expect(module.contains("    getTypeName() { return 'HelloVoid' }\n    getMethod() { return 'POST' }\n    createResponse () { };\n}"))
        #expect(module.contains("    createResponse() { }\n}"))
        #expect(module.contains("    createResponse() { return '' }\n}"))
        let commonJS = Self.dtos(.commonJS, "IncludeTypes=HelloVoid,HelloString")
        #expect(commonJS.contains("    HelloVoid.prototype.createResponse = function () { };\n"))
        #expect(commonJS.contains("    HelloString.prototype.createResponse = function () { return ''; };\n"))
        #expect(commonJS.contains("\nexports.HelloString = exports.HelloVoid = void 0;\n\nvar HelloString = /** @class */ (function () {\n"))
    }
}
