/// HTTP/1.1's chunked transfer coding as the server writes it (RFC 9112 §7.1): a piece of a
/// body as one chunk, its size in hexadecimal, and the last chunk that ends the body.
public enum ChunkedCoding {
    /// `bytes` as one chunk: `<size in hex>\r\n<bytes>\r\n`. Empty `bytes` are no chunk at all
    /// (a chunk of size zero would end the body), so nothing is returned for them.
    ///
    /// Concrete rather than generic: called from other modules, a generic one is not
    /// specialised there and copies the bytes one at a time.
    public static func chunk(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        let size = String(bytes.count, radix: 16).utf8
        var chunk: [UInt8] = []
        chunk.reserveCapacity(size.count + bytes.count + 2 * RenderedHead.lineEnd.count)
        chunk.append(contentsOf: size)
        chunk.append(contentsOf: RenderedHead.lineEnd)
        chunk.append(contentsOf: bytes)
        chunk.append(contentsOf: RenderedHead.lineEnd)
        return chunk
    }

    /// `bytes` as one chunk, as the slice version makes it.
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] { chunk(bytes[...]) }

    /// The last chunk, without trailers: `0\r\n\r\n`.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
}
