/// The behaviours a manifest can name for an operation, in the order an unknown name's message
/// lists them. ``BehaviourReader`` switches over every case, so a name cannot be offered without
/// a reader, nor read without being offered.
enum BehaviourName: String, CaseIterable {
    case echo
    case void
    case template
    case rawBody
    case throwType
    case error
    case validate
    case upload
    case authenticate
    case accessToken
    case createJwt
    case createRefreshJwt
    case invalidateToken
    case autoQuery
    case techStacks
    case chatCompletion
    case chatToChannel
    case rawToChannel
    case objectToChannel
    case resetServerEvents
    case chatHistory
    case clearChatHistory

    /// The test host's Server Events services, which need the app's `serverEvents`.
    var needsServerEvents: Bool {
        switch self {
        case .chatToChannel, .rawToChannel, .objectToChannel, .resetServerEvents, .chatHistory, .clearChatHistory: true
        default: false
        }
    }
}
