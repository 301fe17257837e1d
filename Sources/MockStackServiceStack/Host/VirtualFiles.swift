import MockStackCore

/// The files of an app folder its data names by `~/` paths (`"logoUrl": "~/logos/redis.png"`,
/// ASP.NET's spelling of a path under the app's root): each is served at that path under the
/// app's mount with its content type, a strong `ETag` and `304 Not Modified`, and in the app's
/// JSON answers every string that starts with `~/` is written as an absolute URL through the
/// URL the client used (`http://127.0.0.1:8080/techstacks/logos/redis.png`), as `/types/swift`
/// writes its `BaseUrl`.
struct VirtualFiles: Sendable {
    /// By path under the mount (`/logos/redis.png`).
    private let files: [String: FixtureResponse]

    init(files: [String: FixtureResponse] = [:]) {
        self.files = files
    }

    var isEmpty: Bool { files.isEmpty }

    /// Reads every file `paths` name (`~/logos/redis.png` → the app folder's `logos/redis.png`),
    /// reporting a missing one at the pointer that named its data set.
    static func load(_ paths: [(path: String, pointer: String)], manifest: ManifestReader) -> VirtualFiles {
        var files: [String: FixtureResponse] = [:]
        for (path, pointer) in paths {
            let name = String(path.dropFirst(2))
            guard files["/" + name] == nil, let file = manifest.appFile(named: name, at: pointer) else { continue }
            do {
                files["/" + name] = try FixtureResponse(
                    bytes: file.bytes, fileName: name, contentType: contentType(forFileName: name))
            } catch {
                manifest.report(
                    FixtureDiagnostic(
                        file: manifest.displayPath(file.path), position: error.position, pointer: error.pointer,
                        message: "invalid JSON: \(error.message)"))
            }
        }
        return VirtualFiles(files: files)
    }

    /// The file's answer to a `GET` or `HEAD` of its path, or nil for any other request.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        guard let name = operation(for: request), let file = files[request.path] else { return nil }
        var response = file.respond(to: request)
        response.operation = name
        return response
    }

    /// The file a `GET` or `HEAD` reaches, as the journal and stubs name it (`logos/redis.png`).
    func operation(for request: HTTPRequest) -> String? {
        guard request.method == .get || request.method == .head, files[request.path] != nil else { return nil }
        return String(request.path.dropFirst())
    }

    /// Images by their extension; other files as static fixtures are typed.
    static func contentType(forFileName name: String) -> String {
        switch name.lastRightPart(".").lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "svg": "image/svg+xml"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        default: FixtureResponse.contentType(forFileName: name)
        }
    }

    /// Writes each JSON string of `response` that starts with `~/` as `base` followed by the
    /// rest (`base` ends without a slash).
    static func resolve(_ response: inout HTTPResponse, base: String) {
        guard response.headers["Content-Type"]?.hasPrefix("application/json") == true else { return }
        let body = response.body
        let quote = UInt8(ascii: "\"")
        let tilde = UInt8(ascii: "~")
        let slash = UInt8(ascii: "/")
        guard body.count > 2 else { return }
        var resolved: [UInt8]?
        var copied = 0
        var index = 0
        while index < body.count - 2 {
            // A quote followed by `~` opens a string unless an odd run of backslashes escapes it.
            if body[index] == quote, body[index + 1] == tilde, body[index + 2] == slash,
                !Self.isEscaped(body, at: index)
            {
                if resolved == nil {
                    resolved = []
                    resolved!.reserveCapacity(body.count + 64 * 16)
                }
                resolved!.append(contentsOf: body[copied...index])
                resolved!.append(contentsOf: base.utf8)
                copied = index + 2
                index += 3
            } else {
                index += 1
            }
        }
        guard var resolved else { return }
        resolved.append(contentsOf: body[copied...])
        response.body = resolved
    }

    private static func isEscaped(_ body: [UInt8], at index: Int) -> Bool {
        var backslashes = 0
        var before = index - 1
        while before >= 0, body[before] == UInt8(ascii: "\\") {
            backslashes += 1
            before -= 1
        }
        return backslashes % 2 == 1
    }
}
