import MockStackCore
import MockStackProxy
import MockStackServiceStack

/// A ServiceStack app with the answers `mockstack record` kept: the manifest's `recorded`
/// list — `{"method", "path", "request": {property: value}, "fixture", "status"?, "contentType"?,
/// "headers"?}` — each answered byte for byte to a request with that method, path and
/// properties (``RecordedRequestKey``); every other request goes to the emulation.
struct RecordedServiceStackKind: AppKind {
    let emulation: ServiceStackAppKind

    var name: String { emulation.name }
    var manifestKeys: Set<String> { emulation.manifestKeys.union(["recorded"]) }
    static let entryKeys: Set<String> = ["method", "path", "request", "fixture", "status", "contentType", "headers"]

    func makeApp(name: String, mount: String, manifest: ManifestReader) -> (any MockApp)? {
        guard let app = emulation.makeApp(name: name, mount: mount, manifest: manifest) else { return nil }
        guard manifest.value(at: "/recorded") != nil else { return app }
        var answers: [RecordedAnswer] = []
        for index in manifest.array("/recorded").indices {
            let at = "/recorded/\(index)"
            manifest.rejectUnknownKeys(at: at, allowed: Self.entryKeys)
            let method = manifest.string(at + "/method") ?? "GET"
            guard let path = manifest.string(at + "/path", required: true),
                let fixture = manifest.string(at + "/fixture", required: true),
                let file = manifest.appFile(named: fixture, at: at + "/fixture")
            else { continue }
            var properties: [String: String] = [:]
            for (key, value) in manifest.stringMap(at + "/request") { properties[key.lowercased()] = value }
            let pairs = manifest.stringMap(at + "/headers")
            for (name, value) in pairs {
                if let problem = ConfiguredHeaderText.problem(name: name, value: value) {
                    manifest.report(problem, at: at + "/headers/" + name)
                }
            }
            var headers = HTTPHeaders(
                pairs.filter { !FramingHeaders.contains($0.0) }.map { HTTPHeaders.Field(name: $0.0, value: $0.1) })
            if let type = manifest.string(at + "/contentType") {
                if let problem = ConfiguredHeaderText.problem(name: "Content-Type", value: type) {
                    manifest.report(problem, at: at + "/contentType")
                }
                headers.set("Content-Type", type)
            }
            let status = manifest.int(at + "/status", in: HTTPStatus.finalStatuses) ?? 200
            answers.append(
                RecordedAnswer(
                    request: RecordedRequestKey(method: method, path: path, properties: properties),
                    response: HTTPResponse(status: status, headers: headers, body: file.bytes).preparingHead(),
                    fixture: fixture))
        }
        return RecordedAnswersApp(emulation: app, answers: answers)
    }
}

/// One kept answer and the request it answers.
struct RecordedAnswer: Sendable {
    let request: RecordedRequestKey
    let response: HTTPResponse
    let fixture: String
}

/// The emulated app behind its recorded answers.
struct RecordedAnswersApp: MockApp {
    let emulation: any MockApp
    let answers: [RecordedAnswer]

    var name: String { emulation.name }
    var mount: String { emulation.mount }
    var kind: String { emulation.kind }
    var routes: [RouteDescription] { emulation.routes }
    var parameterNamesIgnoreCase: Bool { emulation.parameterNamesIgnoreCase }

    func operation(for request: HTTPRequest) -> String? { emulation.operation(for: request) }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let asked = RecordedRequestKey(request)
        guard let answer = answers.first(where: { $0.request.matches(asked) }) else {
            return emulation.respond(to: request)
        }
        var response = answer.response
        response.operation = emulation.operation(for: request) ?? answer.fixture
        return response
    }

    func reset() { emulation.reset() }
    func makeSession() -> any MockApp { RecordedAnswersApp(emulation: emulation.makeSession(), answers: answers) }
}
