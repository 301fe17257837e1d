import Foundation
public import MockStackJSON

/// A ServiceStack app's Server Events from a test: its subscriptions, a message sent to them as
/// the app's own services would, and waiting for a client to subscribe instead of sleeping.
///
/// ```swift
/// Task { try await client.start() }                          // the client subscribes
/// let joined = try await mock.waitForServerEventSubscriber(app: "test", channel: "home")
/// try await mock.sendServerEvent(app: "test", selector: "cmd.announce", message: "hi", to: .channel("home"))
/// ```
extension MockStackControlling {
    /// The open subscriptions of the apps with Server Events (`GET server-events`), each app's
    /// oldest first; in a session, that session's only.
    /// - Parameters:
    ///   - app: only this app's;
    ///   - channel: only those in this channel.
    public func serverEventSubscribers(
        app: String? = nil, channel: String? = nil
    ) async throws -> [ServerEventSubscriberInfo] {
        var query: [URLQueryItem] = []
        for (name, value) in [("app", app), ("channel", channel)] {
            if let value { query.append(URLQueryItem(name: name, value: value)) }
        }
        let answer = try await call("GET", "server-events", query: query)
        return answer["subscribers"]?.arrayValue?.map(ServerEventSubscriberInfo.init) ?? []
    }

    /// Sends a message to an app's subscriptions (`POST server-events`), as `data: selector
    /// message` frames.
    /// - Parameters:
    ///   - selector: what the client dispatches on (`cmd.announce`, `trigger.refresh`);
    ///   - message: the body, written as JSON after the selector; nil leaves it empty;
    ///   - target: who receives it;
    ///   - cut: each recipient's stream ends in the middle of this message (a fault).
    /// - Returns: how many subscriptions it went to.
    @discardableResult
    public func sendServerEvent(
        app: String, selector: String, message: JSONValue? = nil, to target: ServerEventTarget = .everyone,
        cut: Bool = false
    ) async throws -> Int {
        var body: JSONObject = ["app": .string(app), "selector": .string(selector)]
        if let message { body["message"] = message }
        if let member = target.member { body[member.key] = .string(member.name) }
        if cut { body["cut"] = .bool(true) }
        return try await call("POST", "server-events", body: .object(body))["sent"]?.intValue ?? 0
    }

    /// Waits until at least `count` subscriptions of `app` match (`POST server-events/wait`):
    /// those open already, or the next ones to subscribe within `timeout`. Throws
    /// ``ServerEventSubscriberWaitTimeout`` when fewer do.
    /// - Parameters:
    ///   - channel: only subscriptions in this channel count;
    ///   - userId: only this user's count;
    ///   - timeout: how long to wait, up to 5 minutes (longer is cut to that).
    /// - Returns: every subscription that matches, at least `count`.
    @discardableResult
    public func waitForServerEventSubscriber(
        app: String, channel: String? = nil, userId: String? = nil, count: Int = 1, timeout: Duration = .seconds(5)
    ) async throws -> [ServerEventSubscriberInfo] {
        let milliseconds = Self.waitMilliseconds(timeout)
        var body: JSONObject = [
            "app": .string(app), "count": .number(JSONNumber(count)), "timeoutMs": .number(JSONNumber(milliseconds)),
        ]
        if let channel { body["channel"] = .string(channel) }
        if let userId { body["userId"] = .string(userId) }
        do {
            // The server answers within the timeout; the client's own allows for a busy machine.
            let answer = try await call(
                "POST", "server-events/wait", body: .object(body), timeout: Double(milliseconds) / 1000 + 30)
            return answer["subscribers"]?.arrayValue?.map(ServerEventSubscriberInfo.init) ?? []
        } catch let error as MockStackControlError where error.status == 408 {
            throw ServerEventSubscriberWaitTimeout(
                app: app, channel: channel, userId: userId, count: count, milliseconds: milliseconds)
        }
    }
}

/// Who a message sent from the control plane goes to
/// (``MockStackControlling/sendServerEvent(app:selector:message:to:cut:)``).
public enum ServerEventTarget: Sendable, Equatable {
    /// Every subscription of the app.
    case everyone
    /// The subscriptions in a channel; the selector goes out as `channel@selector`.
    case channel(String)
    /// One subscription, by its id (``ServerEventSubscriberInfo/id``).
    case subscription(String)
    /// Every subscription of one user, by user id (``ServerEventSubscriberInfo/userId``).
    case user(String)

    /// The body's member that names the target; nil for everyone.
    var member: (key: String, name: String)? {
        switch self {
        case .everyone: nil
        case .channel(let name): ("channel", name)
        case .subscription(let id): ("subscription", id)
        case .user(let id): ("userId", id)
        }
    }
}

/// Fewer subscriptions than asked for matched within the wait
/// (``MockStackControlling/waitForServerEventSubscriber(app:channel:userId:count:timeout:)``).
public struct ServerEventSubscriberWaitTimeout: Error, Sendable, CustomStringConvertible {
    /// The app waited on.
    public var app: String
    /// The channel the subscriptions had to be in, if one was given.
    public var channel: String?
    /// The user whose subscriptions counted, if one was given.
    public var userId: String?
    /// How many were waited for.
    public var count: Int
    /// How long the server waited.
    public var milliseconds: Int

    /// What was waited for, for test failures.
    public var description: String {
        "fewer than \(count) Server Events subscription(s) of app '\(app)'"
            + (channel.map { " in channel '\($0)'" } ?? "") + (userId.map { " of user '\($0)'" } ?? "")
            + " were open within \(milliseconds) ms"
    }
}
