import MockStackCore
import Testing
@testable import MockStackServiceStack

/// test.servicestack.net's error services, request value in, response value out (docs/servicestack.md#error-responses, docs/servicestack.md#error-services).
@Suite struct ErrorServiceTests {
    @Test(arguments: [
        ("Exception", 500, "Exception", "Server Error", "System.Exception"),
        ("NotFound", 404, "NotFound", "What you're looking for isn't here", nil),
        ("Unauthorized", 401, "Unauthorized", "You shall not pass!", nil),
        ("Conflict", 409, "Conflict", "We haz Conflict!", nil),
        ("NotImplementedException", 405, "NotImplementedException", "Not implemented yet, try again later", "System.NotImplementedException"),
        ("ArgumentException", 400, "ArgumentException", "Client Argument Error", "System.ArgumentException"),
        ("AuthenticationException", 401, "AuthenticationException", "We haz issue Authenticatting", "ServiceStack.AuthenticationException"),
        ("UnauthorizedAccessException", 403, "UnauthorizedAccessException", "You shall not pass!", "System.UnauthorizedAccessException"),
        ("OptimisticConcurrencyExceptieon", 409, "OptimisticConcurrencyException", "Sorry too optimistic", "ServiceStack.Data.OptimisticConcurrencyException"),
        ("UnhandledException", 404, "FileNotFoundException", "File was never here", "System.IO.FileNotFoundException"),
    ] as [(String, Int, String, String, String?)])
    func throwTypeAnswersEveryCaseOfTheTable(type: String, status: Int, errorCode: String, message: String, exception: String?) throws {
        let response = TestHost.call(.get, "/throw/\(type)")
        #expect(response.status == status)
        #expect(response.contentType == "application/json; charset=utf-8")
        // HttpErrors add no exception text to the trace; other exceptions their ToString().
        let thrown = exception.map { "\($0): \(message)\n   at ErrorsService.Any(ThrowType request)" } ?? ""
        let trace = "[ThrowType: 11/21/2025 10:15:03 PM]:\\n[REQUEST: {type:\(type)}]\\n\(thrown.replacing("\n", with: "\\n"))\\n"
        #expect(response.text == #"{"responseStatus":{"errorCode":"\#(errorCode)","message":"\#(message)","stackTrace":"\#(trace)","errors":[]}}"#)
    }

    @Test func throwTypeMatchesTheSpecExampleByteForByte() {
        let response = TestHost.call(.put, "/api/ThrowType", json: #"{"type":"NotFound","message":"not here"}"#)
        #expect(response.status == 404)
        #expect(response.reasonPhrase == "Not Found")
        #expect(response.text == #"{"responseStatus":{"errorCode":"NotFound","message":"not here","stackTrace":"[ThrowType: 11/21/2025 10:15:03 PM]:\n[REQUEST: {type:NotFound,message:not here}]\n\n","errors":[]}}"#)
    }

    @Test func aNullTypeBehavesAsException() {
        let response = TestHost.call(.post, "/api/ThrowType", json: "{}")
        #expect(response.status == 500)
        #expect(response.text.hasPrefix(#"{"responseStatus":{"errorCode":"Exception","message":"Server Error","stackTrace":"[ThrowType: 11/21/2025 10:15:03 PM]:\n[REQUEST: {}]\nSystem.Exception: Server Error"#))
    }

    @Test func rawResponseIsABare418WithTheMessageAsReason() {
        let plain = TestHost.call(.get, "/throw/RawResponse")
        #expect(plain.status == 418)
        #expect(plain.reasonPhrase == "On a tea break")
        #expect(plain.body.isEmpty)
        #expect(plain.contentType == nil)
        // Nothing but the host's CorsFeature headers, which ServiceStack adds to every answer.
        let cors = "Access-Control-Allow-Methods: GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD\r\nAccess-Control-Allow-Headers: Content-Type, Allow, Authorization, X-Args\r\n"
            + "Access-Control-Allow-Credentials: true\r\nAccess-Control-Max-Age: 600\r\n"
        #expect(plain.head.bytes.starts(with: Array("HTTP/1.1 418 On a tea break\r\n\(cors)Content-Length: 0\r\n\r\n".utf8).dropLast(2)))
        #expect(TestHost.call(.get, "/api/ThrowType?type=RawResponse&message=Brewing").reasonPhrase == "Brewing")
    }

    @Test(arguments: ["OptimisticConcurrencyException", "notfound", "Anything"])
    func otherTypesEchoTheRequest(type: String) {
        let response = TestHost.call(.post, "/api/ThrowType", json: #"{"type":"\#(type)","message":"m"}"#)
        #expect(response.status == 200)
        #expect(response.text == #"{"type":"\#(type)","message":"m"}"#)
    }

    @Test func throwValidationMatchesTheSpecExample() {
        let response = TestHost.call(.post, "/api/ThrowValidation", json: #"{"email":"invalidemail"}"#)
        #expect(response.status == 400)
        #expect(response.text == """
            {"age":0,"responseStatus":{"errorCode":"InclusiveBetween","message":"'Age' must be between 1 and 120. You entered 0.","errors":[\
            {"errorCode":"InclusiveBetween","fieldName":"Age","message":"'Age' must be between 1 and 120. You entered 0.","meta":{"From":"1","To":"120","Value":"0","PropertyName":"Age","PropertyValue":"0"}},\
            {"errorCode":"NotEmpty","fieldName":"Required","message":"'Required' must not be empty.","meta":{"PropertyName":"Required"}},\
            {"errorCode":"Email","fieldName":"Email","message":"'Email' is not a valid email address.","meta":{"PropertyName":"Email","PropertyValue":"invalidemail"}}]}}
            """)
    }

    @Test func throwValidationWithoutEmailAndCamelCaseOffStaysCamelCase() {
        let response = TestHost.call(.post, "/api/ThrowValidation?jsconfig=EmitCamelCaseNames%3Afalse", json: #"{"age":0}"#)
        #expect(response.status == 400)
        #expect(response.text.hasPrefix(#"{"age":0,"responseStatus":{"errorCode":"InclusiveBetween","#))
        #expect(response.text.hasSuffix(#"{"errorCode":"NotEmpty","fieldName":"Email","message":"'Email' must not be empty.","meta":{"PropertyName":"Email"}}]}}"#))
    }

    @Test func pascalCaseScopeSwitchesTheWholeResponse() {
        let response = TestHost.call(.post, "/api/ThrowValidation?jsconfig=EmitPascalCaseNames:true", json: #"{"age":200,"required":"x","email":"a@b.c"}"#)
        // The wrapper is a fresh ThrowValidationResponse: only its value-type defaults and the status.
        #expect(response.text == #"{"Age":0,"ResponseStatus":{"ErrorCode":"InclusiveBetween","Message":"'Age' must be between 1 and 120. You entered 200.","Errors":[{"ErrorCode":"InclusiveBetween","FieldName":"Age","Message":"'Age' must be between 1 and 120. You entered 200.","Meta":{"From":"1","To":"120","Value":"200","PropertyName":"Age","PropertyValue":"200"}}]}}"#)
    }

    @Test func validRequestsAreEchoed() {
        let response = TestHost.call(.post, "/throwvalidation", json: #"{"age":21,"required":"foo","email":"my@gmail.com"}"#)
        #expect(response.status == 200)
        #expect(response.text == #"{"age":21,"required":"foo","email":"my@gmail.com"}"#)
    }

    /// A status from the request that is not a final one (a 1xx would be sent as an
    /// interim answer and break the connection's framing) answers 500, as a missing one does.
    @Test(arguments: [100, 101, 199, 600])
    func aRequestedStatusOutsideTheFinalOnesIsA500(status: Int) {
        let response = TestHost.call(.get, "/throwhttperror/\(status)?message=Odd")
        #expect(response.status == 500)
        #expect(response.text.hasPrefix(#"{"responseStatus":{"errorCode":"Odd","message":"Odd","#))
    }

    /// `Matches` runs the linear-time ``Pattern`` (partly matching, as .NET's `IsMatch`).
    @Test func matchesRulesUseTheLinearMatcher() throws {
        let rule = ValidationRule(property: "Name", check: .matches(try Pattern("^[a-z]+\\d$")))
        #expect(rule.failure(in: DTOObject([("Name", .string("abc1"))])) == nil)
        #expect(rule.failure(in: DTOObject([("Name", .string("abc"))]))?.errorCode == "RegularExpression")
        let pathological = ValidationRule(property: "Name", check: .matches(try Pattern("^(a+)+b$")))
        #expect(pathological.failure(in: DTOObject([("Name", .string(String(repeating: "a", count: 20_000)))]))?.errorCode == "RegularExpression")
    }

    @Test func relatedErrorServices() {
        let httpError = TestHost.call(.get, "/throwhttperror/409?message=Clash")
        #expect(httpError.status == 409)
        #expect(httpError.text.hasPrefix(#"{"responseStatus":{"errorCode":"Clash","message":"Clash","stackTrace":"[ThrowHttpError: 11/21/2025 10:15:03 PM]:\n[REQUEST: {status:409,message:Clash}]\n\n""#))
        let defaulted = TestHost.call(.post, "/api/ThrowHttpError", json: "{}")
        #expect(defaulted.status == 500)
        #expect(defaulted.text.hasPrefix(#"{"responseStatus":{"errorCode":"ThrowHttpError","message":"ThrowHttpError","#))

        let notFound = TestHost.call(.get, "/throw404/Gone%20away")
        #expect(notFound.status == 404)
        #expect(notFound.text.hasPrefix(#"{"responseStatus":{"errorCode":"NotFound","message":"Gone away","#))
        #expect(TestHost.call(.get, "/throw404").text.contains(#""message":"Custom Status Description""#))

        let custom = TestHost.call(.get, "/throwcustom400")
        #expect(custom.status == 400)
        #expect(custom.text.hasPrefix(#"{"responseStatus":{"errorCode":"Custom400Exception","message":"Custom Status Description","stackTrace":"#))
        #expect(custom.text.hasSuffix(#""errors":[{"errorCode":"FieldErrorCode","fieldName":"FieldName","message":"FieldMessage"}]}}"#))

        let returned = TestHost.call(.get, "/returncustom400/Returned")
        #expect(returned.status == 200)
        #expect(returned.text == #"{"responseStatus":{"errorCode":"Custom400Exception","message":"Returned","errors":[{"errorCode":"FieldErrorCode","fieldName":"FieldName","message":"FieldMessage","meta":{}}],"meta":{}}}"#)

        let business = TestHost.call(.post, "/throwbusinesserror")
        #expect(business.status == 400)
        #expect(business.text == #"{"responseStatus":{"errorCode":"MyValidationType","message":"Some generic validation summary.","errors":[]}}"#)
    }

    @Test func unknownOperationsAre405WithTheServiceStackMessage() {
        for target in ["/api/NonExistingService", "/json/reply/Foo", "/api/Overview"] {
            let response = TestHost.call(.get, target)
            #expect(response.status == 405)
            #expect(response.text.hasPrefix(#"{"responseStatus":{"errorCode":"NotImplementedException","message":"The operation does not exist for this service","stackTrace":"System.NotImplementedException: "#))
            #expect(response.text.hasSuffix(#""errors":[]}}"#))
        }
        #expect(TestHost.call(.get, "/not/a/route").status == 404)
        #expect(TestHost.call(.get, "/not/a/route").body.isEmpty)
    }

    @Test func aVerbTheServiceLacksIs405NamingTheService() {
        let response = TestHost.call(.post, "/api/SendRestGet", json: #"{"id":1}"#)
        #expect(response.status == 405)
        #expect(response.text.hasPrefix(#"{"responseStatus":{"errorCode":"NotImplementedException","message":"Could not find method named Post(SendRestGet) or Any(SendRestGet) on Service SendVerbService","#))
    }
}
