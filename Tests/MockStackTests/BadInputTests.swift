import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The committed corpus of malformed and hostile requests (`Tests/BadInput/corpus.json`, written
/// by `make_corpus.py`), replayed over raw sockets against every shipped app: each gets a 4xx
/// in the error format of whoever answers it, the server keeps serving, and no app's state
/// changes.
@Suite(.timeLimit(.minutes(3)))
struct BadInputTests {
    struct Case {
        var name: String
        var request: [UInt8]
        var statuses: [Int]
        var formats: [String]
        var maxItems: Int?
    }

    static let corpus: JSONValue = {
        let url = packageRoot.appendingPathComponent("Tests/BadInput/corpus.json")
        guard let data = FileManager.default.contents(atPath: url.path), let json = try? JSONParser().parse(Array(data)).root else {
            preconditionFailure("cannot read \(url.path); run python3 Tests/BadInput/make_corpus.py")
        }
        return json
    }()

    static func cases(_ section: String) -> [Case] {
        (corpus[section]?.arrayValue ?? []).map { entry in
            let statuses = entry["status"]?.arrayValue?.compactMap(\.intValue) ?? entry["status"]?.intValue.map { [$0] } ?? []
            return Case(name: entry["name"]?.stringValue ?? "?", request: bytes(of: entry["request"] ?? .null), statuses: statuses,
                        formats: entry["format"]?.arrayValue?.compactMap(\.stringValue) ?? [], maxItems: entry["maxItems"]?.intValue)
        }
    }

    /// Segments are strings of byte-valued characters, or `[segment(s), times]`.
    static func bytes(of segments: JSONValue) -> [UInt8] {
        switch segments {
        case .string(let text): return text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        case .array(let items):
            if items.count == 2, let times = items[1].intValue {
                let unit = bytes(of: items[0])
                if unit.count == 1 { return [UInt8](repeating: unit[0], count: times) }
                var repeated: [UInt8] = []
                repeated.reserveCapacity(unit.count * times)
                for _ in 0..<times { repeated.append(contentsOf: unit) }
                return repeated
            }
            return items.flatMap { bytes(of: $0) }
        default: return []
        }
    }

    /// One request on a connection of its own; the answer, or why there was none. The
    /// connection must then be in step: closed with nothing more when the answer said
    /// `Connection: close`, else answering the next request with that request's answer (a
    /// request whose body the server misread would answer something else first).
    static func exchange(_ request: [UInt8], port: Int) -> Result<RawResponse, RawHTTPError> {
        do {
            let connection = try RawConnection(port: port, timeoutSeconds: 10)
            // The server may answer (and stop reading) before the whole request is sent.
            try? connection.send(request)
            // An answer to HEAD has a Content-Length but no body.
            if request.starts(with: Array("HEAD ".utf8)) { return .success(try headOnlyResponse(connection)) }
            let response = try connection.readResponse()
            if response.header("Connection")?.lowercased() == "close" {
                let rest = connection.readToEnd()
                guard rest.bytes.isEmpty, rest.end != .timedOut else {
                    throw RawHTTPError("\(rest.bytes.count) more bytes after a Connection: close answer (\(rest.end))")
                }
            } else {
                // Closing here is in step too (an HTTP/1.0 exchange ends so); answering anything
                // but the health probe is not.
                try? connection.send("GET /__mockstack/health HTTP/1.1\r\nHost: t\r\n\r\n")
                if let next = try connection.readResponseUnlessClosed(), next.status != 200 || next.text != #"{"status":"ok"}"# {
                    throw RawHTTPError("out of step: the next request on the connection got \(next.status) \(next.text.prefix(80))")
                }
            }
            return .success(response)
        } catch let error as RawHTTPError {
            return .failure(error)
        } catch {
            return .failure(RawHTTPError("\(error)"))
        }
    }

    /// A whole answer to HEAD: its head; the connection must then close.
    static func headOnlyResponse(_ connection: RawConnection) throws -> RawResponse {
        let (bytes, end) = connection.readToEnd()
        guard end == .closed, let response = RawResponse.parse(bytes, headOnly: true), response.length == bytes.count else {
            throw RawHTTPError("no single closed HEAD answer (\(bytes.count) bytes, \(end))")
        }
        return response
    }

    /// Which error shape a body has.
    static func format(of response: RawResponse) -> String {
        if response.body.isEmpty { return "empty" }
        guard let json = try? JSONParser().parse(response.body).root, case .object(let object) = json else { return "not JSON" }
        if object["responseStatus"]?["errorCode"]?.stringValue != nil { return "servicestack" }
        if object["name"]?.stringValue != nil, object["className"]?.stringValue != nil, object["code"]?.intValue == response.status { return "feathers" }
        if object["status"]?.intValue == response.status, object["error"]?.stringValue != nil, object["message"]?.stringValue != nil { return "plain" }
        return "other JSON"
    }

    /// What a request could change: every Feathers store, the sessions and the stubs.
    static func state(port: Int) throws -> [String] {
        func get(_ target: String, token: String? = nil) throws -> String {
            let response = try rawExchange(port: port, "GET \(target) HTTP/1.1\r\nHost: t\r\n\(token.map { "Authorization: Bearer \($0)\r\n" } ?? "")\r\n")
            return "\(target) \(response.status) \(response.text)"
        }
        let body = #"{"strategy":"local","email":"test@example.com","password":"secret"}"#
        let signIn = try rawExchange(port: port, "POST /feathers/authentication HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let token = try JSONParser().parse(signIn.body).root["accessToken"]?.stringValue
        return [
            try get("/feathers/people"), try get("/feathers/people-paginated?$limit=50"), try get("/feathers/users", token: token),
            try get("/feathers/messages?$limit=50", token: token), try get("/__mockstack/sessions"), try get("/__mockstack/stubs"),
        ]
    }

    @Test func everyBadRequestGetsA4xxInItsAppsFormatAndChangesNothing() throws {
        let cases = Self.cases("badInput")
        #expect(cases.count >= 500)
        let mock = try InProcessMockStack()
        let port = mock.ready.port
        let before = try Self.state(port: port)
        var failures: [String] = []
        for item in cases {
            switch Self.exchange(item.request, port: port) {
            case .failure(let error):
                failures.append("\(item.name): no answer (\(error))")
            case .success(let response):
                let format = Self.format(of: response)
                // 4xx, or the protocol's own 505 for a version it does not speak.
                let refused = (400..<500).contains(response.status) || response.status == 505
                if !refused || !item.statuses.contains(response.status) || !item.formats.contains(format) {
                    failures.append("\(item.name): \(response.status) \(format), wanted \(item.statuses) \(item.formats): \(response.text.prefix(160))")
                }
            }
            // Still serving, on a fresh connection.
            guard (try? rawExchange(port: port, "GET /__mockstack/health HTTP/1.1\r\nHost: t\r\n\r\n").status) == 200 else {
                failures.append("after \(item.name): the server stopped answering")
                break
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count):\n\(failures.prefix(40).joined(separator: "\n"))")
        #expect(try Self.state(port: port) == before, "a bad request changed an app's state")
    }

    @Test func hostileButValidPagingIsClampedNotRefused() throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(apps: ["feathers", "techstacks"]))
        #expect(!Self.cases("bounded").isEmpty)
        for item in Self.cases("bounded") {
            let response = try Self.exchange(item.request, port: mock.ready.port).get()
            let json = try JSONParser().parse(response.body).root
            let items = (json["data"] ?? json["results"])?.arrayValue?.count ?? -1
            #expect(item.statuses == [response.status] && (0...(item.maxItems ?? 0)).contains(items), "\(item.name): \(response.status), \(items) items \(response.text.prefix(200))")
        }
    }
}
