import MockStackCore
import Testing
@testable import MockStackServiceStack

/// Multipart uploads as the Swift and Python clients send them (docs/servicestack.md#uploads).
@Suite struct UploadTests {
    @Test func speechToTextDescribesTheFirstFile() {
        let (headers, body) = multipart(fields: [("tag", "ztag"), ("refId", "zid")], files: [("audio", "test.txt", "text/plain", "Hello World")])
        let response = TestHost.call(.post, "/api/SpeechToText?tag=ztag&refId=zid", body: body, headers: headers.adding("Accept", "application/json"))
        #expect(response.status == 200)
        #expect(response.contentType == "application/json; charset=utf-8")
        #expect(response.text == #"{"results":[{"text":"audio, Audio 11, test.txt, text/plain"},{"text":"Tag ztag"},{"text":"RefId zid"}]}"#)
    }

    @Test func speechToTextLeavesTrailingSpacesForNulls() {
        let (headers, body) = multipart(boundary: "0123456789abcdef0123456789abcdef", fields: [], files: [("upload", "a.wav", "audio/wav", "RIFF")])
        let response = TestHost.call(.post, "/api/SpeechToText", body: body, headers: headers)
        #expect(response.text == #"{"results":[{"text":"upload, Audio 4, a.wav, audio/wav"},{"text":"Tag "},{"text":"RefId "}]}"#)
    }

    @Test func speechToTextWithoutAFileIsArgumentNull() {
        let response = TestHost.call(.post, "/api/SpeechToText", json: #"{"tag":"x"}"#)
        #expect(response.status == 400)
        // The test host writes SpeechToText with System.Text.Json: the quotes are escaped.
        #expect(response.text.hasPrefix(#"{"responseStatus":{"errorCode":"ArgumentNullException","message":"Value cannot be null. (Parameter \u0027Audio\u0027)","stackTrace":"[SpeechToText: "#))
        #expect(response.text.hasSuffix(#""errors":[{"errorCode":"ArgumentNullException","fieldName":"Audio","message":"Value cannot be null."}]}}"#))
    }

    @Test func testFileUploadsListsEveryFile() {
        let (headers, body) = multipart(fields: [], files: [("audio", "test.txt", "text/plain", "Hello World"), ("content", "test.md", "text/markdown", "# Hello MD")])
        let response = TestHost.call(.post, "/api/TestFileUploads?id=1&refId=zid", body: body, headers: headers)
        #expect(response.text == #"{"id":1,"refId":"zid","files":[{"name":"audio","fileName":"test.txt","contentLength":11,"contentType":"text/plain"},{"name":"content","fileName":"test.md","contentLength":10,"contentType":"text/markdown"}]}"#)
        let none = TestHost.call(.post, "/api/TestFileUploads?id=1", json: "{}")
        #expect(none.status == 400)
        #expect(none.text.contains(#""errors":[{"errorCode":"ArgumentNullException","fieldName":"Files","message":"Value cannot be null."}]"#))
    }

    @Test func testUploadWithDtoEchoesTheBoundFields() {
        let fields: [(String, String)] = [
            ("int", "1"), ("long", "2"), ("double", "3.3"), ("string", "str"), ("dateTime", "/Date(-62135596800000)/"),
            ("intArray", "[1,2]"), ("stringList", "[\"a\",\"b\"]"), ("pocoArray", "[{\"name\":\"pocoArray\"}]"),
            ("pocoLookup", #"{"A":[{"name":"B"},{"name":"C"}]}"#), ("pocoLookupMap", #"{"A":[{"B":{"name":"C"},"D":{"name":"E"}}]}"#),
        ]
        let (headers, body) = multipart(fields: fields, files: [("image", "test_image.png", "image/png", "")])
        let response = TestHost.call(.post, "/api/TestUploadWithDto", body: body, headers: headers)
        #expect(response.status == 200)
        #expect(response.text.hasPrefix(#"{"int":1,"long":2,"double":3.3,"string":"str","dateTime":"\/Date(-62135596800000)\/","intArray":[1,2],"#))
        #expect(response.text.contains(#""pocoArray":[{"name":"pocoArray"}]"#))
        #expect(response.text.contains(#""pocoLookup":{"A":[{"name":"B"},{"name":"C"}]}"#))
        #expect(response.text.contains(#""pocoLookupMap":{"A":[{"B":{"name":"C"},"D":{"name":"E"}}]}"#))
        #expect(!response.text.contains("nullableId"))
    }
}

extension HTTPHeaders {
    func adding(_ name: String, _ value: String) -> HTTPHeaders {
        var copy = self
        copy.add(name, value)
        return copy
    }
}
