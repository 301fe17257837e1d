import Foundation
import MockStackCore
@testable import MockStackServiceStack

/// The shipped `test` app, loaded from `Fixtures/test` with the clock pinned to
/// 2025-11-21 22:15:03 UTC, and a way to call it without sockets.
struct TestHost {
    static let fixedNow = DateTimeValue(parsing: "2025-11-21T22:15:03Z")!

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Loads a shipped app folder (`test`, `ai`) through the real manifest reader.
    static func load(_ folder: String, clock: @escaping @Sendable () -> DateTimeValue = { fixedNow }) throws -> ServiceStackApp {
        let directory = packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(folder)
        // Every file, those in subfolders (the techstacks logos) included, byte for byte.
        var source = InMemoryFixtureSource(files: [:])
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory.path) {
            var isFolder: ObjCBool = false
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            source.files[folder + "/" + name] = Array(try Data(contentsOf: url))
        }
        let loader = AppLoader(kinds: [ServiceStackAppKind(clock: clock)])
        let apps = try loader.load(from: source)
        return apps[0] as! ServiceStackApp
    }

    static let test = try! load("test")

    /// Sends a request to an app, relative to its mount.
    static func call(_ method: HTTPMethod, _ target: String, json: String? = nil, body: [UInt8]? = nil,
                     headers: HTTPHeaders = [:], app: ServiceStackApp = test) -> HTTPResponse {
        var all = headers
        var bytes = body ?? []
        if let json {
            all.add("Content-Type", "application/json")
            bytes = Array(json.utf8)
        }
        return app.respond(to: HTTPRequest(method: method, target: target, headers: all, body: bytes))
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
    var contentType: String? { headers["Content-Type"] }
}

/// A multipart body as the Swift JsonServiceClient writes it.
func multipart(boundary: String = "FormBoundary2029D96F-8EB4-4B6F-AC2B-AD488FE7EC0A", fields: [(String, String)], files: [(field: String, name: String, type: String, content: String)]) -> (HTTPHeaders, [UInt8]) {
    var body = ""
    for (name, value) in fields {
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }
    for file in files {
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\nContent-Type: \(file.type)\r\n\r\n\(file.content)\r\n"
    }
    body += "--\(boundary)--\r\n"
    return (["Content-Type": "multipart/form-data; boundary=\(boundary)"], Array(body.utf8))
}
