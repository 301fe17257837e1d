import MockStackCore

extension ControlPlane {
    /// The control page, holding what its first poll would fetch (``ControlPage/initialEndpoints``,
    /// answered by the endpoints themselves), so that it shows the apps, stubs and journal as
    /// it loads rather than after a round of requests. Off loopback a browser's navigation
    /// carries no admin token: without it the page holds nothing, and its script asks with
    /// the token from the URL's fragment.
    func controlPage(_ request: HTTPRequest) -> HTTPResponse {
        var initial: [(key: String, json: [UInt8])]?
        if access.authorizes(request) {
            // A session's scope answers no whole-server endpoint (`sessions`): what fails is left out.
            initial = ControlPage.initialEndpoints.compactMap { member in
                let answer = respond(to: HTTPRequest(method: .get, target: Self.prefix + "/" + member.endpoint))
                return answer.status == 200 ? (member.key, answer.body) : nil
            }
        }
        return HTTPResponse(
            status: 200, headers: ["Content-Type": MediaType.html], body: ControlPage.html(initial: initial))
    }
}
