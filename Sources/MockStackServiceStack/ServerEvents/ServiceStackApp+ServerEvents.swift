import MockStackCore

/// The answers of the paths and services `ServerEventsFeature` adds
/// (docs/servicestack-server-events.md#the-endpoints).
extension ServiceStackApp {
    func answerServerEvents(
        _ route: ServerEventsRoute, hub: ServerEventsHub, request: HTTPRequest, input: RequestInput, verb: String,
        now: DateTimeValue
    ) -> HTTPResponse {
        let errors = ErrorRenderer(context: context)
        func failure(_ error: ServiceError) -> HTTPResponse {
            errors.response(for: error, operation: nil, request: nil, verb: verb, jsconfig: nil, now: now)
        }
        switch route.service {
        case .stream:
            return openStream(hub: hub, request: request, input: input, now: now, failure: failure)
        case .heartbeat:
            let id = input.parameter("id") ?? ""
            guard hub.heartbeat(id) else {
                return HTTPResponse(status: 404, reason: "Subscription '\(SafeInput.filter(id))' does not exist")
            }
            return HTTPResponse(status: 200)
        case .unregister:
            let id = input.parameter("id") ?? ""
            guard let subscription = hub.unregister(id) else {
                return failure(.http(404, SafeInput.filter("Subscription \(id) does not exist")))
            }
            return .json(200, hub.meta(of: subscription))
        case .subscribers:
            let channels = Self.channels(in: input)
            return .json(200, .array(hub.subscribers(channels: channels).map(hub.meta(of:))))
        case .updateSubscriber(let pathID):
            let dto: DTOObject
            do {
                dto = try RequestBinder(coercion: context.coercion).bind(
                    input, pathVariables: [], to: ServerEventsDTOs.updateEventSubscriber,
                    operation: "UpdateEventSubscriber")
            } catch {
                return failure(error)
            }
            let id = pathID ?? dto.value(named: "Id").text ?? ""
            let subscribe = Self.names(dto.value(named: "SubscribeChannels"))
            let unsubscribe = Self.names(dto.value(named: "UnsubscribeChannels"))
            for channel in subscribe + unsubscribe {
                if let problem = ServerEventFrame.problem(withName: channel, kind: "channel") {
                    return failure(.argument(.argument, problem, parameter: "SubscribeChannels"))
                }
            }
            guard hub.update(id, subscribe: subscribe, unsubscribe: unsubscribe) else {
                return failure(.http(404, SafeInput.filter("Subscription \(id) does not exist")))
            }
            return .json(200, bytes: Array("{}".utf8))
        }
    }

    private func openStream(
        hub: ServerEventsHub, request: HTTPRequest, input: RequestInput, now: DateTimeValue,
        failure: (ServiceError) -> HTTPResponse
    ) -> HTTPResponse {
        var channels = Self.channels(in: input)
        if channels.isEmpty { channels = ["*"] }
        for channel in channels {
            if let problem = ServerEventFrame.problem(withName: channel, kind: "channel") {
                return failure(.argument(.argument, problem, parameter: "channels"))
            }
        }
        guard !hub.budget.isFull else {
            return failure(
                .http(
                    503,
                    "Too many Server Events subscriptions: at most \(hub.budget.limit) may be open at once"))
        }
        // An invalid or expired token makes the stream anonymous rather than refused.
        var session: AuthSession?
        if case .authenticated(let found)? = context.auth?.identify(request, query: input.query, now: now) {
            session = found
        }
        let baseURL = RequestOrigin(request).baseURL
        let (subscribed, signedIn) = (channels, session)
        let body = StreamedBody(unsentOutputLimit: hub.settings.unsentOutputLimit) {
            ServerEventsStreamHandler(hub: hub, channels: subscribed, baseURL: baseURL) { number in
                signedIn.map { SubscriberIdentity.authenticated($0, number: number) }
                    ?? SubscriberIdentity.anonymous(number: number)
            }
        }
        return HTTPResponse(status: 200, headers: Self.streamHeaders, delivery: .streamed(body))
    }

    /// What ServerEventsFeature's stream handler sets before its first event.
    private static let streamHeaders: HTTPHeaders = [
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no",
    ]

    /// `channel` values first, then `channels`, each split on `,`, empty names dropped.
    static func channels(in input: RequestInput) -> [String] {
        var found: [String] = []
        for name in ["channel", "channels"] {
            for pair in input.query where pair.name.equalsIgnoringASCIICase(name) {
                found += pair.value.split(separator: ",").map(String.init)
            }
        }
        return found
    }

    private static func names(_ value: DTOValue) -> [String] {
        (value.listValue ?? []).compactMap(\.text).filter { !$0.isEmpty }
    }
}

/// The feature's own request DTOs, whether or not the app's metadata lists them.
enum ServerEventsDTOs {
    static let updateEventSubscriber = ObjectShape(
        reference: TypeReference(type: "UpdateEventSubscriber", genericArgs: []),
        properties: [
            PropertyShape(name: "Id", dataMemberName: nil, shape: .string),
            PropertyShape(name: "SubscribeChannels", dataMemberName: nil, shape: .list(.string)),
            PropertyShape(name: "UnsubscribeChannels", dataMemberName: nil, shape: .list(.string)),
        ])
}
