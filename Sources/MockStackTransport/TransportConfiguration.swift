public import Logging

/// How the transport listens and what it tolerates. Every default is safe for a test server.
public struct TransportConfiguration: Sendable {
    /// The address to bind (`127.0.0.1`, `0.0.0.0`, `::1`, `localhost`).
    public var host: String
    /// Event-loop threads; each has its own listener on a shared `SO_REUSEPORT` port when > 1.
    public var threads: Int
    /// Largest accepted request body; larger ones get 413.
    public var maxBodyBytes: Int
    /// Largest accepted request line plus headers; larger ones get 431.
    public var maxHeaderBytes: Int
    /// Most header fields in one request; more get 431.
    public var maxHeaderCount = 100
    /// Seconds a connection may stay idle, take to send one request whole (from its first
    /// byte), or hold output its client takes none of. An answer the client keeps taking, however
    /// slowly (a throttle's), has no deadline.
    public var timeoutSeconds: Int
    /// The longest a `hang` fault holds a connection whose client is still there.
    public var hangLimitMilliseconds: Int
    /// How long a graceful stop waits for in-flight replies before closing anyway.
    public var shutdownGraceMilliseconds: Int
    /// Whether SIGINT and SIGTERM stop the server gracefully (the CLI wants this; a server
    /// embedded in a test process does not).
    public var handlesSignals: Bool
    /// A descriptor whose end of file stops the server as SIGTERM does (the CLI's standard
    /// input under `serve --stop-on-stdin-eof`): the parent holds the pipe's other end, and when
    /// it exits, killed or not, the kernel closes that end. Bytes read from it are dropped.
    public var stopsAtEndOfInput: Int32?
    /// Receives one `info` line per request, and transport warnings.
    public var logger: Logger

    public init(
        host: String = "127.0.0.1",
        threads: Int = 1,
        maxBodyBytes: Int = 16 * 1024 * 1024,
        maxHeaderBytes: Int = 32 * 1024,
        timeoutSeconds: Int = 30,
        hangLimitMilliseconds: Int = 300_000,
        shutdownGraceMilliseconds: Int = 5_000,
        handlesSignals: Bool = false,
        logger: Logger = Logger(label: "mockstack.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.host = host
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.timeoutSeconds = timeoutSeconds
        self.hangLimitMilliseconds = hangLimitMilliseconds
        self.shutdownGraceMilliseconds = shutdownGraceMilliseconds
        self.handlesSignals = handlesSignals
        self.logger = logger
    }
}
