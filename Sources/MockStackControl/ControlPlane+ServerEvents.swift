import MockStackCore

/// The Server Events subscriptions of the apps that keep them (ServiceStack's): list them, send
/// them a message as the app's own services would. In a session, that session's apps only.
/// (They are real-time connections too: `sockets` lists them and `sockets/activity` journals them.)
extension ControlPlane {
    /// This scope's apps whose Server Events are on.
    var serverEventsApps: [any ServerEventsApp] {
        apps.compactMap { $0 as? any ServerEventsApp }.filter(\.keepsRealtimeConnections)
    }

    /// The app with Server Events that `name` names, or the answer saying why there is none.
    func serverEventsApp(named name: JSONValue?) -> Result<any ServerEventsApp, ResponseFailure> {
        let apps = serverEventsApps
        return app(named: name, among: apps, name: \.name, with: "Server Events")
    }

    /// `subscribers` of `app`, each as ``ServerEventSubscriber/json`` with the app's name.
    static func listed(_ subscribers: [ServerEventSubscriber], of app: String) -> [JSONValue] {
        subscribers.map { subscriber in
            guard case .object(var described) = subscriber.json else { return subscriber.json }
            described["app"] = .string(app)
            return .object(described)
        }
    }

    private static let listParameters = ["app", "channel"]

    /// `GET server-events[?app=NAME&channel=CH]`: `{"subscribers":[…]}`, each app's oldest first.
    func listServerEventSubscribers(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        for name in parameters.names where !Self.listParameters.contains(name) {
            return PlainError.response(
                400, "Unknown parameter '\(name)' (parameters: \(Self.listParameters.joined(separator: ", ")))")
        }
        var apps = serverEventsApps
        if let wanted = parameters["app"] {
            switch serverEventsApp(named: .string(wanted)) {
            case .success(let app): apps = [app]
            case .failure(let failure): return failure.response
            }
        }
        let channel = parameters["channel"]
        let listed = apps.flatMap { app in
            Self.listed(app.serverEventSubscribers(channel: channel), of: app.name)
        }
        return .json(200, ["subscribers": .array(listed)])
    }

    private enum SendKey {
        static let app = "app"
        static let selector = "selector"
        static let message = "message"
        static let cut = "cut"
        /// Who receives it: at most one of these; none is everyone.
        static let targets = ["channel", "subscription", "userId"]
        static let all = [app, selector, message] + targets + [cut]
    }

    /// `POST server-events` with `{"app", "selector", "message", "channel" | "subscription" |
    /// "userId", "cut"}`: `{"sent":N}`, or the app's refusal (``ServerEventRefusal``).
    func sendServerEvent(_ request: HTTPRequest) -> HTTPResponse {
        let (body, app): (JSONObject, any ServerEventsApp)
        switch objectBody(request, keys: SendKey.all).flatMap({ body in
            serverEventsApp(named: body[SendKey.app]).map { (body, $0) }
        }) {
        case .success(let read): (body, app) = read
        case .failure(let failure): return failure.response
        }
        let message: ServerEventMessage
        switch Self.readMessage(body) {
        case .success(let read): message = read
        case .failure(let failure): return failure.response
        }
        switch app.sendServerEvent(message) {
        case .success(let sent):
            return .json(200, ["sent": .number(JSONNumber(sent))])
        case .failure(let refusal):
            return PlainError.response(Self.status(of: refusal), refusal.message)
        }
    }

    /// The status that answers a refusal: no such subscription, a name the server refuses, a
    /// message over the app's limit.
    static func status(of refusal: ServerEventRefusal) -> Int {
        switch refusal {
        case .unknownSubscription: 404
        case .invalidName: 400
        case .tooLarge: 413
        }
    }

    private static func readMessage(_ body: JSONObject) -> Result<ServerEventMessage, ResponseFailure> {
        func refuse(_ message: String) -> Result<ServerEventMessage, ResponseFailure> {
            .failure(ResponseFailure(PlainError.response(400, message)))
        }
        guard case .string(let selector)? = body[SendKey.selector], !selector.isEmpty else {
            return refuse("'selector' must be the message's selector, a non-empty string (cmd.announce)")
        }
        let given = SendKey.targets.filter { body[$0] != nil }
        guard given.count <= 1 else {
            return refuse(
                """
                Give at most one of 'channel', 'subscription' and 'userId' (none sends to everyone); found \
                \(given.map { "'\($0)'" }.joined(separator: " and "))
                """)
        }
        var target = ServerEventMessage.Target.everyone
        if let key = given.first {
            guard case .string(let name)? = body[key], !name.isEmpty else {
                return refuse("'\(key)' must be a non-empty string")
            }
            target =
                switch key {
                case "channel": .channel(name)
                case "subscription": .subscription(name)
                default: .user(name)
                }
        }
        var cut = false
        if let value = body[SendKey.cut] {
            guard case .bool(let flag) = value else { return refuse("'cut' must be true or false") }
            cut = flag
        }
        // `null` is no body, as leaving it out is: the frame keeps the space after the selector.
        let message: JSONValue? = body[SendKey.message] == .null ? nil : body[SendKey.message]
        return .success(ServerEventMessage(selector: selector, body: message, target: target, cut: cut))
    }
}
