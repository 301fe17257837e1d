public import MockStackCore

/// What a socket client's event asks of the app: no answer at all (no listener for that event,
/// as Feathers registers one per method name), or the arguments of the acknowledgement.
public enum FeathersSocketAnswer: Sendable, Equatable {
    /// No listener: the client hears nothing, not even an acknowledgement.
    case noListener
    /// `[null, result]` after a success, `[error]` after a failure.
    case acknowledgement([JSONValue])
    /// A successful `create` on `authentication`: the connection is now signed in with this token.
    case signedIn(token: String, result: JSONValue)
    /// A successful `remove` on `authentication`: the connection signs out.
    case signedOut(result: JSONValue)
}

extension FeathersApp {
    /// Where each method's params argument sits after the path: `find(params)`,
    /// `get(id, params)`, `create(data, params)`, `update(id, data, params)`, … (Feathers'
    /// `transport-commons` socket `runMethod`).
    static func paramsPosition(_ method: ServiceMethod) -> Int {
        switch method {
        case .find: 0
        case .get, .create, .remove: 1
        case .update, .patch: 2
        }
    }

    /// A service call from a socket client: the event `name` with `arguments` (path first), made
    /// with the connection's `token`. docs/feathers-realtime.md#feathers-over-the-socket.
    public func socketCall(_ name: String, _ arguments: [JSONValue], token: String?) -> FeathersSocketAnswer {
        guard let method = ServiceMethod(rawValue: name), listens(for: method) else { return .noListener }
        do {
            let (target, call) = try socketCall(method, arguments, token: token)
            let result = try perform(call, on: target)
            guard case .authentication = target else { return .acknowledgement([.null, result.value]) }
            if method == .remove { return .signedOut(result: result.value) }
            return .signedIn(token: result.value["accessToken"]?.stringValue ?? "", result: result.value)
        } catch {
            return .acknowledgement([error.json(dialect)])
        }
    }

    /// Whether any service (or the authentication service) has the method: Feathers listens
    /// for one event per method some service has.
    private func listens(for method: ServiceMethod) -> Bool {
        if authentication != nil, method == .create || method == .remove { return true }
        return services.contains { $0.exposes(method) }
    }

    private func socketCall(
        _ method: ServiceMethod, _ arguments: [JSONValue], token: String?
    ) throws(FeathersError) -> (Target, FeathersCall) {
        guard case .string(let path)? = arguments.first else { throw FeathersError(.notFound, "Invalid service path") }
        guard let (target, _) = resolve("/" + path) else {
            throw FeathersError(.notFound, "Service '\(path)' not found")
        }
        let allowed =
            switch target {
            case .authentication: method == .create || method == .remove
            case .service(let service): service.exposes(method)
            }
        guard allowed else {
            throw FeathersError(.methodNotAllowed, "Method '\(method.rawValue)' not allowed on service '\(path)'")
        }
        let position = Self.paramsPosition(method)
        let rest = Array(arguments.dropFirst())
        guard rest.count <= position + 1 else {
            throw FeathersError(.badRequest, "Too many arguments for '\(method.rawValue)' method")
        }
        func argument(_ index: Int) -> JSONValue { index < rest.count ? rest[index] : .null }
        var call = FeathersCall(method: method, query: argument(position).objectValue ?? [:], token: token)
        switch method {
        case .find: break
        case .create: call.data = argument(0)
        case .get, .remove: call.id = Self.socketID(argument(0))
        case .update, .patch:
            call.id = Self.socketID(argument(0))
            call.data = argument(1)
        }
        return (target, call)
    }

    /// An id argument as the services read ids: a number by its literal, a string as it is,
    /// null (or nothing) for a multi call.
    static func socketID(_ value: JSONValue) -> String? {
        switch value {
        case .null: nil
        case .string(let text): text
        case .number(let number): number.literal
        case .bool(let flag): flag ? "true" : "false"
        case .array, .object: value.jsonText
        }
    }
}
