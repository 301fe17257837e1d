import MockStackCore

/// The test host's chat services' memory (NetCoreApps/Test's `Chat.cs`): message ids counted
/// from 1, and the public messages of each channel, the newest kept.
struct ChatHistory: Sendable {
    /// Public messages kept per channel; older ones are dropped first.
    static let keptPerChannel = 1_000
    /// How many messages `GetChatHistory` answers when it names no `Take`.
    static let defaultTake = 100

    private var lastId = 0
    private var channels: [String: [ChatMessage]] = [:]

    /// The next message's id.
    mutating func nextId() -> Int {
        lastId += 1
        return lastId
    }

    mutating func record(_ message: ChatMessage) {
        var kept = channels[message.channel, default: []]
        kept.append(message)
        if kept.count > Self.keptPerChannel { kept.removeFirst(kept.count - Self.keptPerChannel) }
        channels[message.channel] = kept
    }

    /// The latest `take` messages of each channel after `afterId` (a channel named twice counts
    /// twice, as the host's service does), all together in id order.
    func recent(channels names: [String], afterId: Int?, take: Int?) -> [ChatMessage] {
        let take = max(0, take ?? Self.defaultTake)
        var found: [ChatMessage] = []
        for name in names {
            let after = (channels[name] ?? []).filter { afterId == nil || $0.id > afterId! }
            found += after.suffix(take)
        }
        return found.sorted { $0.id < $1.id }
    }

    mutating func clear() { channels = [:] }
}

/// One chat message (`ChatMessage` in the test host's DTOs).
struct ChatMessage: Sendable, Equatable {
    var id: Int
    var channel: String
    var fromUserId: String?
    var fromName: String?
    var message: String?
    var isPrivate: Bool
}

extension ChatMessage {
    /// `ChatMessage` as the host declares it: its members in that order, unset ones left out.
    static let reference = TypeReference(type: "ChatMessage", genericArgs: [])

    var dto: DTOValue {
        var object = DTOObject()
        object.append("Id", .number(JSONNumber(id)))
        object.append("Channel", .string(channel))
        if let fromUserId { object.append("FromUserId", .string(fromUserId)) }
        if let fromName { object.append("FromName", .string(fromName)) }
        if let message { object.append("Message", .string(message)) }
        object.append("Private", .bool(isPrivate))
        return .object(object)
    }
}
