/// Finds the lines of a head, a chunk size line or trailers in bytes that arrive in pieces,
/// keeping the start of a line whose end has not arrived yet.
///
/// A line ends with CRLF or with a bare LF: RFC 9112 §2.2 lets a recipient take a bare LF for a
/// line end, and nginx does, so clients that send one work. A CR anywhere
/// else is refused (RFC 9112 §2.2 allows replacing it with a space; refusing is safer when
/// another parser in front may read it as a line end).
///
/// Each byte is looked at once to find the line end and once more when the line is read;
/// bytes are copied only when a line arrives in more than one piece.
struct HTTP1LineReader: Sendable {
    /// The start of a line whose end has not arrived yet.
    private var carried: [UInt8] = []

    /// What ``scan(_:from:budget:)`` found.
    enum Scan: Equatable {
        /// No line end yet: every byte from `start` on was kept for the next call.
        case incomplete
        /// The line, its line end included, would be longer than the budget; the bytes through
        /// `end` were looked at.
        case tooLong(end: Int)
        /// The line ends with the LF at `lineFeed`; `length` counts all its bytes, the ones
        /// carried from earlier calls and the LF included.
        case ended(lineFeed: Int, length: Int)
    }

    /// A line, as ``read(_:from:lineFeed:_:)`` hands it over.
    enum Line<Read> {
        /// The line had a CR that did not end it.
        case bareCarriageReturn
        /// The line was empty (only its line end).
        case empty
        /// What the caller read from the line's bytes (line end excluded).
        case text(Read)
    }

    /// Whether the partial line could still be an empty one (nothing but a CR so far).
    var partialLineMayBeEmpty: Bool { carried.isEmpty || (carried.count == 1 && carried[0] == HTTP1Syntax.carriageReturn) }

    /// Looks for the end of the current line in `input` from `start` (which must be before its
    /// end), the line being allowed `budget` bytes in all, its line end included.
    mutating func scan(_ input: UnsafeRawBufferPointer, from start: Int, budget: Int) -> Scan {
        let available = input.count - start
        let room = max(0, budget - carried.count)
        let searchEnd = start + min(available, room)
        if let index = HTTP1Syntax.firstIndex(of: HTTP1Syntax.lineFeed, in: input, from: start, to: searchEnd) {
            return .ended(lineFeed: index, length: carried.count + (index - start) + 1)
        }
        if room <= available { return .tooLong(end: searchEnd) }
        carried.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[start...]))
        return .incomplete
    }

    /// The line that ends at `lineFeed` (as ``scan(_:from:budget:)`` found), read by `body`
    /// without its line end, then forgotten.
    mutating func read<Read>(_ input: UnsafeRawBufferPointer, from start: Int, lineFeed: Int,
                             _ body: (UnsafeRawBufferPointer) -> Read) -> Line<Read> {
        let piece = UnsafeRawBufferPointer(rebasing: input[start..<lineFeed])
        if carried.isEmpty { return Self.line(piece, body) }
        carried.append(contentsOf: piece)
        defer { carried.removeAll(keepingCapacity: true) }
        return carried.withUnsafeBytes { Self.line($0, body) }
    }

    /// Forgets any partial line; a buffer grown by a long line is let go.
    mutating func reset() {
        if carried.capacity > 4096 {
            carried = []
        } else {
            carried.removeAll(keepingCapacity: true)
        }
    }

    private static func line<Read>(_ raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Read) -> Line<Read> {
        var end = raw.count
        if end > 0, raw[end - 1] == HTTP1Syntax.carriageReturn { end -= 1 }
        let content = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        if content.contains(HTTP1Syntax.carriageReturn) { return .bareCarriageReturn }
        return content.isEmpty ? .empty : .text(body(content))
    }
}
