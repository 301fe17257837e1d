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

    /// Whether no byte of a line is waiting for its end.
    var isEmpty: Bool { carried.isEmpty }

    /// Looks for the end of the current line in `input` from `start` (which must be before its
    /// end), the line being allowed `budget` bytes in all, its line end included.
    mutating func scan(_ input: Span<UInt8>, from start: Int, budget: Int) -> Scan {
        let available = input.count - start
        let room = max(0, budget - carried.count)
        let searchEnd = start + min(available, room)
        if let index = HTTP1Syntax.firstIndex(of: HTTP1Syntax.lineFeed, in: input, from: start, to: searchEnd) {
            return .ended(lineFeed: index, length: carried.count + (index - start) + 1)
        }
        if room <= available { return .tooLong(end: searchEnd) }
        UTF8Bytes.append(input.extracting(start...), to: &carried)
        return .incomplete
    }

    /// Whether the current line began in an earlier call: then it is read with
    /// ``takeLine(ending:)``, else straight from the input.
    var isCarrying: Bool { !carried.isEmpty }

    /// The current line, which began in an earlier call and ends with `piece` (the line's
    /// bytes in this call, its LF excluded), handed over whole; ``giveBack(_:)`` returns the
    /// buffer for the next long line.
    mutating func takeLine(ending piece: Span<UInt8>) -> [UInt8] {
        var line = carried
        carried = []
        UTF8Bytes.append(piece, to: &line)
        return line
    }

    /// A buffer ``takeLine(ending:)`` handed over, kept (emptied) for the next line that
    /// arrives in pieces.
    mutating func giveBack(_ buffer: consuming [UInt8]) {
        carried = buffer
        carried.removeAll(keepingCapacity: true)
    }

    /// Forgets any partial line; a buffer grown by a long line is let go.
    mutating func reset() {
        if carried.capacity > 4096 {
            carried = []
        } else {
            carried.removeAll(keepingCapacity: true)
        }
    }

    /// The length of a line's content: `line` (its LF excluded) without the CR that may end it.
    ///
    /// A CR left inside is not looked for here, on every line: no line the parser accepts can
    /// hold one (a request line's method is a token and its target visible ASCII, a field's
    /// name is a token and its value refuses controls, and so does a chunk extension), so a
    /// line with a bare CR is always refused, and ``refusal(_:of:)`` then names the CR.
    static func contentLength(of line: Span<UInt8>) -> Int {
        let end = line.count
        return end > 0 && line[end - 1] == HTTP1Syntax.carriageReturn ? end - 1 : end
    }

    /// What to answer for a refused line's `content`: a bare CR when it holds one (the client
    /// may take it for a line end, so that is the problem to name), else `error`.
    static func refusal(_ error: HTTP1ParseError, of content: Span<UInt8>) -> HTTP1ParseError {
        HTTP1Syntax.contains(content) { $0 == HTTP1Syntax.carriageReturn } ? .bareCarriageReturn : error
    }
}
