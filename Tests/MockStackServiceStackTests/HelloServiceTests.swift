import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The Hello family and the typed echo services (docs/servicestack.md#hello-and-echo-services), as the clients call them.
@Suite struct HelloServiceTests {
    @Test(arguments: [
        (HTTPMethod.get, "/api/Hello?name=World", nil),
        (.post, "/api/Hello", #"{"name":"World"}"#),
        (.get, "/hello/World", nil),
        (.get, "/hello?name=World", nil),
        (.post, "/hello", #"{"Name":"World"}"#),
        (.get, "/json/reply/Hello?NAME=World", nil),
        (.get, "/api/Hello.json?name=World", nil),
    ] as [(HTTPMethod, String, String?)])
    func helloAnswersByteForByte(method: HTTPMethod, target: String, json: String?) {
        let response = TestHost.call(method, target, json: json)
        #expect(response.status == 200)
        #expect(response.contentType == "application/json; charset=utf-8")
        #expect(response.text == #"{"result":"Hello, World!"}"#)
    }

    @Test func helloWithTitleAndUnicode() {
        #expect(TestHost.call(.get, "/api/Hello?name=World&title=Dr").text == #"{"result":"Hello, Dr. World!"}"#)
        #expect(TestHost.call(.get, "/hello/%C3%BC%C3%B6%C3%A4%C3%9F").text == #"{"result":"Hello, üöäß!"}"#)
    }

    @Test func batchedHelloAnswersInOrderWithTheCompletedHeader() {
        for target in ["/api/Hello[]", "/api/Hello%5B%5D"] {
            let response = TestHost.call(.post, target, json: #"[{"name":"foo"},{"name":"bar"},{"name":"baz"}]"#)
            #expect(response.status == 200)
            #expect(response.headers["X-AutoBatch-Completed"] == "3")
            #expect(response.text == #"[{"result":"Hello, foo!"},{"result":"Hello, bar!"},{"result":"Hello, baz!"}]"#)
        }
        let notAnArray = TestHost.call(.post, "/api/Hello[]", json: #"{"name":"foo"}"#)
        #expect(notAnArray.status == 400)
        #expect(notAnArray.text.contains(#""errorCode":"SerializationException""#))
    }

    @Test func stringResultsAreWrittenUnquoted() {
        for target in ["/api/HelloString?name=World", "/json/reply/HelloString?Name=World"] {
            let response = TestHost.call(.get, target)
            #expect(response.text == "World")
            #expect(response.contentType == "text/plain; charset=utf-8")
        }
        #expect(TestHost.call(.get, "/api/ReturnString?data=0x10").text == "0x10")
    }

    @Test func helloListMapsEveryName() {
        #expect(TestHost.call(.get, "/api/HelloList?names=%5BA,B,C%5D").text == #"[{"result":"A"},{"result":"B"},{"result":"C"}]"#)
        #expect(TestHost.call(.get, "/api/HelloList?names=A,B,C").text == #"[{"result":"A"},{"result":"B"},{"result":"C"}]"#)
    }

    @Test(arguments: [HTTPMethod.get, .post, .put, .delete])
    func voidOperationsAnswer204(method: HTTPMethod) {
        let response = TestHost.call(method, "/api/HelloReturnVoid?", json: method == .get ? nil : #"{"id":1}"#)
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        #expect(TestHost.call(.post, "/json/oneway/Hello", json: #"{"name":"x"}"#).status == 204)
    }

    @Test(arguments: [
        (HTTPMethod.post, "/api/SendDefault", "POST"),
        (.get, "/api/SendGet?id=1", "GET"),
        (.post, "/api/SendPost", "POST"),
        (.put, "/api/SendPut", "PUT"),
        (.get, "/api/SendRestGet?id=1", "GET"),
    ] as [(HTTPMethod, String, String)])
    func sendVerbServicesReportPathAndMethod(method: HTTPMethod, target: String, verb: String) {
        let response = TestHost.call(method, target, json: method == .get ? nil : #"{"id":1}"#)
        let path = String(target.prefix { $0 != "?" })
        #expect(response.text == #"{"id":1,"pathInfo":"\#(path)","requestMethod":"\#(verb)"}"#)
        #expect(TestHost.call(.get, "/sendrestget/7").text == #"{"id":7,"pathInfo":"/sendrestget/7","requestMethod":"GET"}"#)
    }

    @Test func methodOverrideComesFromHeaderQueryOrForm() {
        let header = TestHost.call(.post, "/api/SendDefault", json: #"{"id":1}"#, headers: ["X-Http-Method-Override": "PUT"])
        #expect(header.text.hasSuffix(#""requestMethod":"PUT"}"#))
        let query = TestHost.call(.post, "/api/SendDefault?X-Http-Method-Override=DELETE", json: #"{"id":1}"#)
        #expect(query.text.hasSuffix(#""requestMethod":"DELETE"}"#))
        let form = TestHost.call(.post, "/api/SendPut", body: Array("id=3&X-Http-Method-Override=PUT".utf8),
                                 headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.text == #"{"id":3,"pathInfo":"/api/SendPut","requestMethod":"PUT"}"#)
    }

    @Test func rawBodyServicesEchoTheBodyWithArgs() {
        let json = TestHost.call(.post, "/api/SendJson?id=1&name=name", json: #"{"foo":"bar"}"#)
        #expect(json.text == #"{"foo":"bar"}"#)
        #expect(json.headers["X-Args"] == "1,name")
        let text = TestHost.call(.post, "/api/SendText?id=1&name=name&contentType=text/plain", json: "foo")
        #expect(text.text == "foo")
        #expect(text.headers["X-Args"] == "1,name")
        #expect(text.contentType == "text/plain; charset=utf-8")
    }

    /// The items test.servicestack.net's CustomItemsService answers (the Python client's
    /// `test_can_deserialize_nested_list` checks GetItems' names).
    @Test func itemServicesHoldTheTestHostsItems() {
        #expect(TestHost.call(.get, "/api/GetItems").text
                == #"{"results":[{"name":"bar item 1","description":"item 1 description"},{"name":"bar item 2","description":"item 2 description"}]}"#)
        let naked = #"[{"name":"item 1","description":"item 1 description"},{"name":"item 2","description":"item 2 description"}]"#
        #expect(TestHost.call(.get, "/api/GetNakedItems").text == naked)
        // AltQueryItems wraps GetNakedItems' list and sets no total.
        #expect(TestHost.call(.get, "/api/AltQueryItems").text == #"{"offset":0,"total":0,"results":"# + naked + #","meta":{}}"#)
    }
}
