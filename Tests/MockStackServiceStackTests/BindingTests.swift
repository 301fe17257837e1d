import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Request binding and coercion (docs/servicestack.md#request-binding) and the serialization rules it feeds (docs/servicestack.md#serialization).
@Suite struct BindingTests {
    @Test func allTypesFromTheQueryStringEchoEveryValue() {
        let query = "id=1&char=c&byte=65&short=3&int=4&long=5&uShort=6&uInt=7&uLong=8&float=1.1&double=2.2&decimal=3.0&string=string"
            + "&timeSpan=PT1S&guid=25892e1780f6415f9c657395632f0223&stringList=[A,B,C]&stringArray=[D,E,F]&stringMap={A:D,B:E,C:F}&intStringMap={1:A,2:B,3:C}"
        let encoded = query.replacing("[", with: "%5B").replacing("]", with: "%5D").replacing("{", with: "%7B").replacing("}", with: "%7D")
        let response = TestHost.call(.get, "/api/AllTypes?" + encoded)
        #expect(response.status == 200)
        #expect(response.text == """
            {"id":1,"byte":65,"short":3,"int":4,"long":5,"uShort":6,"uInt":7,"uLong":8,"float":1.1,"double":2.2,"decimal":3.0,"string":"string",\
            "dateTime":"\\/Date(-62135596800000-0000)\\/","timeSpan":"PT1S","dateTimeOffset":"\\/Date(-62135596800000+0000)\\/",\
            "guid":"25892e1780f6415f9c657395632f0223","char":"c","keyValuePair":{},"stringList":["A","B","C"],"stringArray":["D","E","F"],\
            "stringMap":{"A":"D","B":"E","C":"F"},"intStringMap":{"1":"A","2":"B","3":"C"}}
            """)
    }

    @Test func jsonBodiesAcceptBothClientsDatesAndByteForms() {
        let swift = TestHost.call(.post, "/api/HelloAllTypes", json: """
            {"name":"x","allTypes":{"id":1,"dateTime":"\\/Date(978307200000-0000)\\/","nullableTimeSpan":null,"timeSpan":"PT1H","guid":"25892e17-80f6-415f-9c65-7395632f0223"},\
            "allCollectionTypes":{"byteArray":[65,66,67],"pocoLookupMap":{"A":[{"B":{"name":"C"},"D":{"name":"E"}}]}}}
            """)
        #expect(swift.status == 200)
        #expect(swift.text.contains(#""dateTime":"\/Date(978307200000-0000)\/","timeSpan":"PT1H""#))
        #expect(swift.text.contains(#""guid":"25892e1780f6415f9c657395632f0223""#))
        #expect(swift.text.contains(#""byteArray":[65,66,67]"#))
        #expect(swift.text.contains(#""pocoLookupMap":{"A":[{"B":{"name":"C"},"D":{"name":"E"}}]}"#))

        let python = TestHost.call(.post, "/api/AllCollectionTypes", json: #"{"byteArray":"QUJD","intList":[1,2]}"#)
        #expect(python.text.contains(#""byteArray":"QUJD""#))
        let iso = TestHost.call(.post, "/api/AllTypes", json: #"{"dateTime":"2001-01-01T00:00:00+00:00"}"#)
        #expect(iso.text.contains(#""dateTime":"\/Date(978307200000)\/""#))
    }

    @Test func namesAreCaseInsensitiveAndUnknownKeysIgnored() {
        let response = TestHost.call(.post, "/api/ThrowValidation", json: #"{"AGE":21,"Required":"r","eMail":"a@b.c","unknown":[1,2]}"#)
        #expect(response.text == #"{"age":21,"required":"r","email":"a@b.c"}"#)
    }

    @Test func queryValuesFillOnlyWhatTheBodyLeftAtDefault() {
        let response = TestHost.call(.post, "/api/ThrowValidation?age=99&required=fromQuery&email=q@q.q", json: #"{"age":21,"required":"fromBody"}"#)
        #expect(response.text == #"{"age":21,"required":"fromBody","email":"q@q.q"}"#)
    }

    @Test func jsvQuotingAndPythonsJSONFormValues() {
        let (headers, body) = multipart(fields: [("stringList", #"["a,b","c""d"]"#), ("stringMap", #"{"k":"v"}"#), ("id", "1")], files: [])
        let response = TestHost.call(.post, "/api/AllTypes", body: body, headers: headers)
        #expect(response.text.contains(#""stringList":["a,b","c\"d"]"#))
        #expect(response.text.contains(#""stringMap":{"k":"v"}"#))
        let swiftQuoted = TestHost.call(.get, "/api/Hello?name=%22a,%5C%22b%22")
        #expect(swiftQuoted.text == #"{"result":"Hello, a,\"b!"}"#)
    }

    @Test func badValuesAreOne400WithAFieldErrorEach() {
        let response = TestHost.call(.get, "/api/AllTypes?id=abc&byte=300&guid=nope&string=fine")
        #expect(response.status == 400)
        // AllTypes returns itself and has no ResponseStatus, so an ErrorResponse wraps the error.
        #expect(response.text.hasPrefix(#"{"responseStatus":{"errorCode":"SerializationException","message":"Unable to bind to request 'AllTypes'","#))
        #expect(response.text.hasSuffix("""
            "errors":[{"errorCode":"SerializationException","fieldName":"Id","message":"'abc' is an Invalid value for 'Id'"},\
            {"errorCode":"SerializationException","fieldName":"Byte","message":"'300' is an Invalid value for 'Byte'"},\
            {"errorCode":"SerializationException","fieldName":"Guid","message":"'nope' is an Invalid value for 'Guid'"}]}}
            """))
        let json = TestHost.call(.post, "/api/ThrowValidation", json: #"{"age":"abc"}"#)
        #expect(json.status == 400)
        #expect(json.text.contains(#"{"errorCode":"SerializationException","fieldName":"Age","message":"'abc' is an Invalid value for 'Age'"}"#))
    }

    @Test func malformedBodiesAre400InResponseStatusForm() {
        let cases: [(HTTPHeaders, String, String)] = [
            (["Content-Type": "application/json"], #"{"name":"#, "Could not deserialize 'application/json' request using Hello: "),
            (["Content-Type": "application/json"], #""just a string""#, "expected a JSON object, found string"),
            (["Content-Type": "text/xml"], "<Hello/>", "Content-Type 'text/xml' is not supported by Hello"),
            (["Content-Type": "multipart/form-data"], "--x\r\n", "multipart/form-data request has no boundary"),
            (["Content-Type": "multipart/form-data; boundary=x"], "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ntruncated", "no closing boundary"),
            (["Content-Type": "multipart/form-data; boundary=x"], "--x\r\nContent-Type: text/plain\r\n\r\nv\r\n--x--\r\n", "has no Content-Disposition name"),
            (["Content-Type": "multipart/form-data; boundary=x"], "no boundary here", "does not contain its boundary"),
        ]
        for (headers, body, message) in cases {
            let response = TestHost.call(.post, "/api/Hello", body: Array(body.utf8), headers: headers)
            #expect(response.status == 400, "\(body)")
            #expect(response.contentType == "application/json; charset=utf-8")
            #expect(response.text.contains(#""errorCode":"SerializationException""#))
            #expect(response.text.contains(message), "\(response.text)")
        }
    }

    @Test func hugeFieldCountsAreRefused() {
        let query = (0..<1_001).map { "f\($0)=1" }.joined(separator: "&")
        let response = TestHost.call(.get, "/api/Hello?" + query)
        #expect(response.status == 400)
        #expect(response.text.contains("more than 1000 query parameters and form fields"))
        let parts = multipart(fields: (0..<1_001).map { ("f\($0)", "1") }, files: [])
        let multipartResponse = TestHost.call(.post, "/api/Hello", body: parts.1, headers: parts.0)
        #expect(multipartResponse.status == 400)
        #expect(multipartResponse.text.contains("more than 1000 parts"))
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(TestHost.call(.post, "/api/HelloList", json: #"{"names":\#(deep)}"#).status == 400)
    }

    @Test func echoTypesRoundTripDatesAndTimeSpans() {
        let response = TestHost.call(.get, "/api/EchoTypes?dateTime=/Date(1420070400000)/&timeSpan=PT0S&int=7")
        #expect(response.text.contains(#""dateTime":"\/Date(1420070400000)\/","timeSpan":"PT0S""#))
        #expect(response.text.contains(#""int":7"#))
    }
}

/// Hostile values found in review: each is a clear 400 or ignored, never a crash.
@Suite struct HostileInputTests {
    @Test func outOfRangeDatesAndDurationsAreBindingErrors() {
        for query in ["dateTime=/Date(9999999999999999)/", "timeSpan=10675200.00:00", "dateTime=/Date(-99999999999999999)/", "timeSpan=P99999999999999999999D"] {
            let response = TestHost.call(.get, "/api/EchoTypes?" + query)
            #expect(response.status == 400, "\(query)")
            #expect(response.text.contains("is an Invalid value for"), "\(query)")
        }
    }

    @Test func malformedJsconfigIsIgnored() {
        for value in ["%3A", "a,%3A,", "%2C%2C"] {
            #expect(TestHost.call(.get, "/api/Hello?name=x&jsconfig=" + value).text == #"{"result":"Hello, x!"}"#)
        }
    }

    @Test func predefinedReplyRoutesTakeBatchesToo() {
        let response = TestHost.call(.post, "/json/reply/Hello%5B%5D", json: #"[{"name":"a"},{"name":"b"}]"#)
        #expect(response.headers["X-AutoBatch-Completed"] == "2")
        #expect(response.text == #"[{"result":"Hello, a!"},{"result":"Hello, b!"}]"#)
    }

    /// A route whose variable no property binds (test.servicestack.net's `/hellotypes/{Name}`)
    /// fails every request by it as ServiceStack's RestPath does; the operation's other routes
    /// still answer.
    @Test func anUnboundRouteVariableRefusesTheRequest() throws {
        let refused = TestHost.call(.get, "/hellotypes/World")
        #expect(refused.status == 400)
        #expect(refused.headers["Content-Type"] == "application/json; charset=utf-8")
        let status = try JSONParser().parse(refused.body).root["responseStatus"]
        #expect(status?["errorCode"] == "ArgumentException")
        #expect(status?["message"] == "Could not find property Name on HelloTypes")
        let predefined = TestHost.call(.get, "/api/HelloTypes?string=a&int=2")
        #expect(predefined.status == 200)
        #expect(predefined.text == #"{"string":"a","bool":false,"int":2}"#)
    }
}
