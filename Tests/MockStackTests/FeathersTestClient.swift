import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// A small REST client for a Feathers app (URLSession; JSON parsed with mockstack's own parser).
struct FeathersClient: Sendable {
    let base: String

    struct Reply {
        var status: Int
        var headers: [String: String]
        var text: String
        var json: JSONValue { (try? JSONParser().parse(text).root) ?? .null }
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration)
    }()

    /// A request; `json` is sent as `application/json`, `form` as urlencoded.
    func send(_ method: String, _ path: String, json: String? = nil, form: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        if let form {
            request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(form.utf8)
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return Reply(status: http.statusCode, headers: fields, text: String(decoding: data, as: UTF8.self))
    }

    /// Creates records in order and returns them as the server answered.
    @discardableResult
    func seed(_ path: String, _ records: [String]) async throws -> [JSONValue] {
        var created: [JSONValue] = []
        for record in records {
            let reply = try await send("POST", path, json: record)
            try #require(reply.status == 201, "\(reply.status) \(reply.text)")
            created.append(reply.json)
        }
        return created
    }
}

extension InProcessMockStack {
    /// The shipped fixtures' apps — `test`, `feathers` and `example` unless named — on a free
    /// loopback port, with `adjust` applied to the configuration first.
    static func shipped(_ apps: [String] = ["test", "feathers", "example"],
                        _ adjust: (inout MockStackConfiguration) -> Void = { _ in }) throws -> InProcessMockStack {
        var configuration = MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: apps)
        adjust(&configuration)
        return try InProcessMockStack(configuration: configuration)
    }
}

extension FeathersClient {
    /// A client for the whole server (paths start with an app's mount).
    init(_ mock: InProcessMockStack) { self.init(base: mock.baseURL.absoluteString) }
}

/// A server running one Feathers app (mounted at `/suite`) from a manifest written for the test.
final class FeathersTestServer: @unchecked Sendable {
    let mock: InProcessMockStack
    let root: URL
    let client: FeathersClient

    /// - Parameters:
    ///   - services: the `services` object of the manifest, as JSON text.
    ///   - members: more of the manifest's members (`"cors": false,`), as JSON text with a comma after each.
    init(dialect: String = "v5", services: String, authentication: Bool = false, members: String = "", files: [String: String] = [:]) throws {
        root = try makeTemporaryDirectory()
        let auth = authentication ? #""authentication": {"secret": "conformance-secret", "service": "users"},"# : ""
        var all = files
        all["suite/app.json"] = #"{"kind": "feathers", "mount": "/suite", "dialect": "\#(dialect)", \#(auth) \#(members) "services": \#(services)}"#
        try writeFiles(all, under: root)
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [root]))
        client = FeathersClient(base: try mock.url(for: "suite").absoluteString)
    }

    deinit {
        mock.stop()
        try? FileManager.default.removeItem(at: root)
    }

    func send(_ method: String, _ path: String, json: String? = nil, form: String? = nil, headers: [String: String] = [:]) async throws -> FeathersClient.Reply {
        try await client.send(method, path, json: json, form: form, headers: headers)
    }

    @discardableResult
    func seed(_ path: String, _ records: [String]) async throws -> [JSONValue] { try await client.seed(path, records) }
}

extension JSONValue {
    /// `name` of each record in a list or a page's `data`.
    var names: [String] {
        let records = self["data"]?.arrayValue ?? arrayValue ?? []
        return records.compactMap { $0["name"]?.stringValue }
    }
}

/// The problems loading one app manifest reports, as `pointer: message`, sorted (none when it loads).
func manifestProblems(_ manifest: String) -> [String] {
    do {
        _ = try AppLoader.standard.load(from: InMemoryFixtureSource(files: ["bad/app.json": manifest]))
        return []
    } catch {
        return error.diagnostics.map { "\($0.pointer): \($0.message)" }.sorted()
    }
}
