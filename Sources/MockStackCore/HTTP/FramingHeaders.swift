/// The headers that say where an answer ends and what becomes of the connection:
/// `Content-Length`, `Transfer-Encoding` and `Connection`. They are the transport's alone
/// (``RenderedHead`` writes them from the body it sends); a stub or a fixture that sets one is
/// refused when it is read, rather than the header being dropped silently, since the author
/// meant something by it — a wrong length for a truncation test, say, which `fault` does
/// properly — and sent beside the real one it would desynchronise keep-alive connections.
public enum FramingHeaders {
    public static let names = ["Content-Length", "Transfer-Encoding", "Connection"]

    /// Whether `name` (in any case) is one of ``names``.
    public static func contains(_ name: String) -> Bool {
        names.contains { $0.equalsIgnoringASCIICase(name) }
    }

    /// Why a configured answer may not set `name`, or nil when it may.
    public static func problem(with name: String) -> String? {
        contains(name)
            ? """
            \(name) is the server's to set (it frames the answer on the connection); a stub or fixture \
            may not set it
            """
            : nil
    }
}
