/// How much of a request ``HTTP1RequestParser`` reads before it refuses it.
public struct HTTP1Limits: Sendable, Equatable {
    /// The request line and header fields together, every byte counted: leading empty lines,
    /// line ends and the empty line that ends the head. Past it: 431. A chunked body's trailer
    /// fields count toward it too.
    public var maxHeadBytes: Int
    /// Header fields (and then trailer fields) a request may have. Past it: 431.
    public var maxHeaderCount: Int
    /// Body bytes a request may carry. Past it: 413, for a declared `Content-Length` as soon as
    /// the head is read, before any of the body arrives; for a chunked body as soon as a chunk
    /// size would take the running total past it.
    public var maxBodyBytes: Int

    /// The longest chunk size line (size, extensions and line end) a chunked body may have; past
    /// it: 400. Extensions are ignored, but not read without end.
    public static let maxChunkSizeLineBytes = 4096

    /// The limits mockstack serves with unless told otherwise (`--max-header-bytes`,
    /// `--max-body-bytes`).
    public init(maxHeadBytes: Int = 32 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 16 * 1024 * 1024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}
