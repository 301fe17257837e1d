import MockStackCore

/// What a load cache hit's app becomes when its build after the ready line finds a mistake
/// after all (a file edited since start-up): every request gets its kind's 500, naming the
/// mistake, until a restart or `--watch` loads the fixtures with every check. It has no routes.
struct UnavailableApp: MockApp {
    let name: String
    let mount: String
    let kind: String
    /// The 500, in the app's own server's format.
    let answer: HTTPResponse

    var routes: [RouteDescription] { [] }

    func respond(to request: HTTPRequest) -> HTTPResponse { answer }
}
