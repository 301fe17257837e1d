import MockStackCore

/// The test host's Server Events services (NetCoreApps/Test's `Chat.cs`,
/// docs/servicestack-server-events.md#the-test-hosts-services), as behaviours a manifest names.
/// Each publishes before it answers. The app's manifest must turn `serverEvents` on.

/// `chatToChannel` (PostChatToChannel): a `ChatMessage` from a live subscription, to a channel
/// or, with `ToUserId`, privately to that user's subscriptions with an echo to the sender.
struct ChatToChannelBehaviour: OperationBehaviour {
    func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let hub = try call.serverEvents()
        let request = call.request
        let from = request.value(named: "From").text ?? ""
        guard let sender = hub.subscription(from) else { throw .http(404, "Subscription \(from) does not exist") }
        guard let text = request.value(named: "Message").text else { throw .nullReference }
        let selector = try call.selector(default: nil)
        let toUserId = request.value(named: "ToUserId").text
        let channel = request.value(named: "Channel").text
        var message = ChatMessage(
            id: hub.withChat { $0.nextId() }, channel: channel ?? "", fromUserId: sender.identity.userId,
            fromName: sender.identity.displayName, message: HTMLEncoding.encode(text), isPrivate: toUserId != nil)
        if let toUserId {
            hub.notify(.user(toUserId), selector: selector, body: try call.json(message))
            // The sender sees what each of the user's subscriptions was sent, the prefixes adding
            // up as the host's loop, changing one message, adds them.
            for receiver in hub.subscriptions(ofUser: toUserId) {
                message.message = "@\(receiver.identity.displayName): \(message.message ?? "")"
                hub.notify(.subscription(from), selector: selector, body: try call.json(message))
            }
        } else {
            guard let channel else {
                throw .argument(.argumentNull, "Value cannot be null. (Parameter 'key')", parameter: "key")
            }
            hub.notify(.channel(channel), selector: selector, body: try call.json(message))
            hub.withChat { $0.record(message) }
        }
        return ServiceResult(.dto(message.dto))
    }
}

/// `rawToChannel` (PostRawToChannel): the message as a JSON string, to a channel or a user; 204.
struct RawToChannelBehaviour: OperationBehaviour {
    func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let hub = try call.serverEvents()
        let request = call.request
        let from = request.value(named: "From").text ?? ""
        guard hub.subscription(from) != nil else { throw .http(404, "Subscription \(from) does not exist") }
        let selector = try call.selector(default: nil)
        let body = try call.checked(
            request.value(named: "Message").text.map { JSONValue.string(HTMLEncoding.encode($0)).encoded() } ?? [])
        try call.publish(body, selector: selector, on: hub)
        return .void
    }
}

/// `objectToChannel` (PostObjectToChannel): `CustomType`, then `SetterType`, each as JSON with
/// the request's selector or `cmd.<Type>`, to a channel or a user; 204.
struct ObjectToChannelBehaviour: OperationBehaviour {
    func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let hub = try call.serverEvents()
        let request = call.request
        for property in ["CustomType", "SetterType"] {
            let value = request.value(named: property)
            guard !value.isNull else { continue }
            let selector = try call.selector(default: "cmd.\(property)")
            let shape = call.operation.requestType.properties.first { $0.name == property }?.shape ?? .any
            let body = try call.checked(
                call.context.writer(call.operation.dialect, jsconfig: nil).bytes(value, as: shape))
            try call.publish(body, selector: selector, on: hub)
        }
        return .void
    }
}

/// `resetServerEvents` (ResetServerEvents): every subscription forgotten; 204.
struct ResetServerEventsBehaviour: OperationBehaviour {
    func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        try call.serverEvents().forgetAll()
        return .void
    }
}

/// `chatHistory` (GetChatHistory): `{results: [ChatMessage]}`, public messages only.
struct ChatHistoryBehaviour: OperationBehaviour {
    func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let hub = try call.serverEvents()
        let request = call.request
        let channels = (request.value(named: "Channels").listValue ?? []).compactMap(\.text)
        let found = hub.withChat {
            $0.recent(
                channels: channels, afterId: request.value(named: "AfterId").intValue,
                take: request.value(named: "Take").intValue)
        }
        return ServiceResult(.dto(.object(DTOObject([("Results", .list(found.map(\.dto)))]))))
    }
}

/// `clearChatHistory` (ClearChatHistory): the history forgotten, then a redirect to `/`, as the
/// host's service answers.
struct ClearChatHistoryBehaviour: OperationBehaviour {
    func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        try call.serverEvents().withChat { $0.clear() }
        return ServiceResult(.empty, status: 302, headers: ["Location": "/"])
    }
}

extension ServiceCall {
    fileprivate func serverEvents() throws(ServiceError) -> ServerEventsHub {
        // The manifest reader refuses these behaviours without the feature, so this cannot fail in a loaded app.
        guard let hub = context.serverEvents else { throw .http(404, "Server Events are not enabled") }
        return hub
    }

    /// The request's `Selector`, checked as ServerEventsFeature checks one, or `default`.
    fileprivate func selector(default fallback: String?) throws(ServiceError) -> String {
        guard let selector = request.value(named: "Selector").text ?? fallback else {
            throw .argument(.argumentNull, "Value cannot be null. (Parameter 'selector')", parameter: "selector")
        }
        if selector.contains("@") { throw ServiceError(.argument, "Illegal '@' used in name") }
        return selector
    }

    /// To the `ToUserId`'s subscriptions when the request names one, else to its `Channel`.
    fileprivate func publish(_ body: [UInt8], selector: String, on hub: ServerEventsHub) throws(ServiceError) {
        if let toUserId = request.value(named: "ToUserId").text {
            hub.notify(.user(toUserId), selector: selector, body: body)
        } else {
            hub.notify(.channel(try channel()), selector: selector, body: body)
        }
    }

    fileprivate func channel() throws(ServiceError) -> String {
        guard let channel = request.value(named: "Channel").text else {
            throw .argument(.argumentNull, "Value cannot be null. (Parameter 'channel')", parameter: "channel")
        }
        if channel.contains("@") { throw ServiceError(.argument, "Illegal '@' used in name") }
        return channel
    }

    /// A DTO's JSON as the operation's serializer writes it.
    fileprivate func json(_ message: ChatMessage) throws(ServiceError) -> [UInt8] {
        try checked(
            context.writer(operation.dialect, jsconfig: nil).bytes(message.dto, as: .object(ChatMessage.reference)))
    }

    /// `body`, unless it is larger than the app sends in one event: then the request is refused
    /// before anyone is sent anything (a bound of mockstack's own).
    fileprivate func checked(_ body: [UInt8]) throws(ServiceError) -> [UInt8] {
        let limit = context.serverEvents?.settings.maxMessageBytes ?? Int.max
        guard body.count <= limit else {
            throw .argument(
                .argument, "The message is \(body.count) bytes; Server Events here send at most \(limit)",
                parameter: "Message")
        }
        return body
    }
}

extension ServiceError {
    /// .NET's `NullReferenceException`, which the host's chat service throws for a missing message.
    static let nullReference = ServiceError(
        .custom(fullName: "System.NullReferenceException", status: 500),
        "Object reference not set to an instance of an object.")
}
