import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The techstacks app serves its technologies' logos (small PNGs drawn by
/// Scripts/techstacks/generate.py), and its data's `~/` logo URLs point at them through the
/// URL the client used.
@Suite struct LogoTests {
    static let app = try! TestHost.load("techstacks")

    private func get(_ target: String, headers: HTTPHeaders = [:], mountPath: String = "/techstacks") -> HTTPResponse {
        Self.app.respond(to: HTTPRequest(method: .get, target: target, headers: headers, mountPath: mountPath))
    }

    @Test func logosAreServedAsPNGsWithETags() throws {
        let file = try Data(contentsOf: TestHost.packageRoot.appendingPathComponent("Fixtures/techstacks/logos/servicestack.png"))
        let logo = get("/logos/servicestack.png")
        #expect(logo.status == 200)
        #expect(logo.operation == "logos/servicestack.png")
        #expect(Self.app.operation(for: HTTPRequest(method: .head, target: "/logos/servicestack.png")) == "logos/servicestack.png")
        #expect(logo.contentType == "image/png")
        #expect(logo.body == Array(file))
        #expect(logo.body.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let tag = try #require(logo.headers["ETag"])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        let again = get("/logos/servicestack.png", headers: ["If-None-Match": tag])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["ETag"] == tag)
        #expect(get("/logos/nope.png").status == 404)
        #expect(Self.app.respond(to: HTTPRequest(method: .post, target: "/logos/servicestack.png")).status != 200)
    }

    @Test func logoURLsAreWrittenThroughTheURLTheClientUsed() {
        let target = "/api/FindTechnologies?ids=1,7&fields=Id,LogoUrl&orderBy=Id"
        #expect(get(target, headers: ["Host": "127.0.0.1:8080"]).text
                == #"{"offset":0,"total":2,"results":[{"id":1,"logoUrl":"http://127.0.0.1:8080/techstacks/logos/servicestack.png"},"#
                + #"{"id":7,"logoUrl":"http://127.0.0.1:8080/techstacks/logos/angularjs.png"}]}"#)
        // A cached answer (FindTechnologies caches for an hour) still follows each caller's URL,
        // a proxy's first; on an exposed port the app is at the root.
        #expect(get(target, headers: ["Host": "h:1", "X-Forwarded-Host": "techstacks.example, in", "X-Forwarded-Proto": "https"]).text
                == #"{"offset":0,"total":2,"results":[{"id":1,"logoUrl":"https://techstacks.example/techstacks/logos/servicestack.png"},"#
                + #"{"id":7,"logoUrl":"https://techstacks.example/techstacks/logos/angularjs.png"}]}"#)
        #expect(get(target, headers: ["Host": "127.0.0.1:8082"], mountPath: "").text.contains(#""logoUrl":"http://127.0.0.1:8082/logos/angularjs.png""#))
        // The stacks' technology choices carry the same URLs.
        #expect(get("/api/GetTechnologyStack?slug=techstacks-website", headers: ["Host": "a"]).text.contains(#""logoUrl":"http://a/techstacks/logos/"#))
    }

    @Test func onlyStringsThatStartWithTheRootAreResolved() {
        var response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"],
                                    body: Array(#"{"a":"~/x.png","b":"\"~/y","c":"a~/z","d":["~/w"]}"#.utf8))
        VirtualFiles.resolve(&response, base: "http://h/m")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":"http://h/m/x.png","b":"\"~/y","c":"a~/z","d":["http://h/m/w"]}"#)
    }
}
