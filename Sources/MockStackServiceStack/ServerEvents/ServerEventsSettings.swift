import MockStackCore

/// How an app's Server Events feature is set up (the manifest's `serverEvents`), with
/// ServiceStack's `ServerEventsFeature` defaults (docs/servicestack-server-events.md#the-feature).
public struct ServerEventsSettings: Sendable, Equatable {
    /// How often clients are told to send a heartbeat (`heartbeatIntervalMs` in `cmd.onConnect`).
    public var heartbeatIntervalMilliseconds = 10_000
    /// A subscription whose last heartbeat is older than this is dropped.
    public var idleTimeoutMilliseconds = 30_000
    /// A heartbeat looks for expired subscriptions at most this often, as the real server's does.
    public var houseKeepingIntervalMilliseconds = 5_000
    /// Whether a channel's subscribers hear of joins, leaves and updates (`cmd.onJoin`, …).
    public var notifyChannelOfSubscriptions = true
    /// Subscriptions open on the app at once, its session copies included; past it a stream
    /// request is refused with a 503. ServiceStack has no such bound: every subscription holds
    /// a connection, and a test server must not let one client hold them all. Every join and
    /// leave is told to the whole channel, so a channel's traffic grows with the square of its
    /// size: the default keeps a full channel's from crowding out other clients, as the
    /// Engine.IO session bound does for sockets.
    public var maxSubscriptions = 2_000
    /// The largest frame the app sends; a larger message is refused before any subscriber gets it.
    public var maxMessageBytes = 1 << 20
    /// Bytes of frames waiting for one subscription's client to read them; past it, it is dropped.
    public var unsentOutputLimit = ConnectionUpgrade.defaultUnsentOutputLimit

    public init() {}

    /// The delay until an expiry check due `milliseconds` after `now` (monotonic): its due time
    /// rounded up to the next whole second, or house-keeping interval if shorter, so the checks of
    /// subscriptions falling due close together share one wake-up of their loop, and idle
    /// subscriptions cost next to nothing. A silent subscription goes at most that much later.
    func expiryCheckDelay(_ milliseconds: Int, now: Int) -> Int {
        let granule = min(1_000, houseKeepingIntervalMilliseconds)
        let due = now + milliseconds
        let remainder = due % granule
        return milliseconds + (remainder == 0 ? 0 : granule - remainder)
    }

    /// The manifest's keys, as the settings' names.
    static let manifestKeys: Set<String> = [
        "heartbeatIntervalMs", "idleTimeoutMs", "notifyChannelOfSubscriptions", "maxSubscriptions", "maxMessageBytes",
    ]

    /// `serverEvents` in `app.json`: `{}` for the defaults, or any of ``manifestKeys``.
    static func read(_ manifest: ManifestReader, at pointer: String) -> ServerEventsSettings? {
        guard manifest.settingsObject(at: pointer, allowed: manifestKeys) else { return nil }
        var settings = ServerEventsSettings()
        if let interval = manifest.int(pointer + "/heartbeatIntervalMs", in: 10...3_600_000) {
            settings.heartbeatIntervalMilliseconds = interval
        }
        if let timeout = manifest.int(pointer + "/idleTimeoutMs", in: 10...3_600_000) {
            settings.idleTimeoutMilliseconds = timeout
        }
        if let notify = manifest.value(at: pointer + "/notifyChannelOfSubscriptions") {
            if let flag = notify.boolValue {
                settings.notifyChannelOfSubscriptions = flag
            } else {
                manifest.report(
                    "expected true or false, found \(notify.typeName)", at: pointer + "/notifyChannelOfSubscriptions")
            }
        }
        if let limit = manifest.int(pointer + "/maxSubscriptions", in: 1...1_000_000) {
            settings.maxSubscriptions = limit
        }
        if let limit = manifest.int(pointer + "/maxMessageBytes", in: 64...(64 << 20)) {
            settings.maxMessageBytes = limit
        }
        // Housekeeping keeps the real server's ratio to the idle timeout, so short test timeouts expire promptly.
        settings.houseKeepingIntervalMilliseconds = min(5_000, max(1, settings.idleTimeoutMilliseconds / 6))
        return settings
    }
}
