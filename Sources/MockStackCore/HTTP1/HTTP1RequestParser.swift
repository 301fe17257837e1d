/// A streaming HTTP/1.1 request parser (RFC 9112): feed it a connection's bytes as they arrive,
/// in any split, and it says when a whole request has come, or why it is refused. No I/O.
///
/// It reads one request at a time and never past its end, so pipelined requests stay with the
/// caller; after `.complete` it is ready for the next one (``reset()`` does no harm). Each byte
/// is looked at a bounded number of times however the bytes are split, so a request trickling
/// in a byte at a time costs linear time; the head is gathered in one reused line buffer, the
/// body in one array reserved from `Content-Length`.
///
/// Decisions the RFCs leave open:
/// - A bare LF ends a line as CRLF does (RFC 9112 §2.2 allows it; nginx does the
///   same); a CR not followed by LF is a 400 anywhere in the head, a chunk size line or trailers.
/// - Empty lines before the request line are skipped (RFC 9112 §2.2), but count toward
///   ``HTTP1Limits/maxHeadBytes`` so that a stream of them ends in a 431.
/// - `Content-Length` duplicates must be identical strings; a list (`5,5`) is a 400.
/// - A chunk size past the body limit is a 413 as soon as its digits say so; more than 16 digits
///   of a smaller one (leading zeros) a 400. Chunk extensions are ignored; a chunk size line
///   may have 4 KiB (``HTTP1Limits/maxChunkSizeLineBytes``), past that a 400.
/// - Trailer fields are checked as header fields, count toward the head's byte and field
///   limits, and are dropped: merged into the headers they could smuggle in framing fields.
/// - Any method but HEAD and TRACE may carry a body, an unknown one included.
public struct HTTP1RequestParser: Sendable {
    private let limits: HTTP1Limits
    private var phase = Phase.requestLine
    private var lines = HTTP1LineReader()
    /// Bytes of the head so far, leading empty lines included, then of the trailers too.
    private var headBytes = 0
    private var requestLine: HTTP1RequestLine?
    private var fields: [HTTPHeaders.Field] = []
    /// The previous request's target and fields, whose strings the next request shares where
    /// it spells them the same (``HTTP1Syntax/string(_:reusing:)``).
    private var earlierTarget: String?
    /// The path and query the previous request's target split into: the next request's too
    /// when it sends the same target (``HTTP1RequestLine/reusesEarlierTarget``).
    private var earlierSplit: (path: String, query: String?)?
    private var earlierFields: [HTTPHeaders.Field] = []
    private var summary = HTTP1FieldSummary()
    /// Header fields, then trailer fields, so far.
    private var fieldCount = 0
    private var head: HTTP1Head?
    private var body: [UInt8] = []
    private var failure: HTTP1ParseError?

    private enum Phase: Sendable {
        /// Before the request line: leading empty lines, then the line itself.
        case requestLine
        case headerLines
        /// A `Content-Length` body, with this many bytes still to come.
        case fixedBody(remaining: Int)
        case chunkSizeLine
        /// Chunk data, with this many bytes still to come.
        case chunkData(remaining: Int)
        /// The line end after chunk data, its CR perhaps already read.
        case chunkDataEnd(sawCarriageReturn: Bool)
        case trailerLines
    }

    /// A parser for the first request of a connection.
    public init(limits: HTTP1Limits = HTTP1Limits()) {
        self.limits = limits
    }

    /// Reads bytes of the request now arriving, never past its end (pipelined requests stay unread).
    /// Returns how many bytes it consumed and what that finished.
    public mutating func parse(_ bytes: Span<UInt8>) -> HTTP1ParseStep {
        if let failure { return .failed(failure, consumed: 0) }
        var position = 0
        while position < bytes.count {
            let step: HTTP1ParseStep? =
                switch phase {
                case .requestLine, .headerLines, .trailerLines: headLine(bytes, at: &position)
                case .chunkSizeLine: chunkSizeLine(bytes, at: &position)
                case .fixedBody(let remaining): bodyBytes(bytes, at: &position, remaining: remaining)
                case .chunkData(let remaining): chunkData(bytes, at: &position, remaining: remaining)
                case .chunkDataEnd(let sawCarriageReturn):
                    chunkDataEnd(bytes, at: &position, sawCarriageReturn: sawCarriageReturn)
                }
            if let step { return step }
        }
        return .needMore(consumed: bytes.count)
    }

    /// ``parse(_:)`` over an array's bytes, for callers that hold them so (tests, fuzzers).
    public mutating func parse(_ bytes: [UInt8]) -> HTTP1ParseStep {
        let all = bytes[...]
        return parse(all.span)
    }

    /// The head of the request being read once it is complete but its body is not yet (for
    /// `Expect: 100-continue`), else nil.
    public var pendingHead: HTTP1Head? { head }

    /// The method of the request being read, once its request line has been read: the answer
    /// to a HEAD request carries no body, a refusal included.
    public var method: HTTPMethod? { requestLine?.method }

    /// Whether any byte has arrived since the last request completed, leading empty lines
    /// included: the transport starts the whole-request deadline then, so a client sending
    /// nothing but empty lines cannot keep a connection past the timeout.
    public var isMidRequest: Bool {
        if case .requestLine = phase { return headBytes > 0 || !lines.isEmpty }
        return true
    }

    /// Back to the start, for the next request on the connection (called by the transport after
    /// `.complete`), and out of a failure.
    public mutating func reset() {
        phase = .requestLine
        lines.reset()
        headBytes = 0
        requestLine = nil
        fields = []
        summary = HTTP1FieldSummary()
        fieldCount = 0
        head = nil
        body = []
        failure = nil
    }

    /// ``reset()`` after a request completed: `head` was taken and `failure` is nil then, so
    /// only what a request fills is cleared, and the field summary's strings only when it holds any.
    private mutating func startOver() {
        phase = .requestLine
        lines.reset()
        headBytes = 0
        earlierTarget = requestLine?.target
        requestLine = nil
        // Handed on, not copied: the array is the request's headers' too, and is only read here.
        earlierFields = fields
        fields = []
        summary.clear()
        fieldCount = 0
        body = []
    }

    // MARK: - The head and the trailers

    /// The next line of the head or the trailers, if it ends within `bytes`.
    private mutating func headLine(_ bytes: Span<UInt8>, at position: inout Int) -> HTTP1ParseStep? {
        let start = position
        switch lines.scan(bytes, from: start, budget: limits.maxHeadBytes - headBytes) {
        case .incomplete:
            position = bytes.count
            return nil
        case .tooLong(let end):
            return fail(.headTooLarge(limit: limits.maxHeadBytes), consumed: end)
        case .ended(let lineFeed, let length):
            headBytes += length
            position = lineFeed + 1
            let consumed = position
            let piece = bytes.extracting(start..<lineFeed)
            guard lines.isCarrying else { return headLine(piece, consumed: consumed) }
            let whole = lines.takeLine(ending: piece)
            defer { lines.giveBack(whole) }
            let all = whole[...]
            return headLine(all.span, consumed: consumed)
        }
    }

    /// A whole line of the head or the trailers (its LF excluded), read where it lies.
    private mutating func headLine(_ raw: Span<UInt8>, consumed: Int) -> HTTP1ParseStep? {
        let line = raw.extracting(first: HTTP1LineReader.contentLength(of: raw))
        switch phase {
        case .requestLine:
            if line.isEmpty { return nil }  // an empty line before the request line (RFC 9112 §2.2)
            do {
                requestLine = try HTTP1RequestLine.parse(line, reusing: earlierTarget)
            } catch {
                return fail(HTTP1LineReader.refusal(error, of: line), consumed: consumed)
            }
            phase = .headerLines
            return nil
        case .headerLines:
            if line.isEmpty { return headEnded(consumed: consumed) }
            return fieldLine(line, consumed: consumed)
        default:
            if line.isEmpty { return complete(consumed: consumed) }
            return trailerLine(line, consumed: consumed)
        }
    }

    /// A header field, counted, read and appended to the request's.
    private mutating func fieldLine(_ line: Span<UInt8>, consumed: Int) -> HTTP1ParseStep? {
        if let tooMany = countField(line) { return fail(tooMany, consumed: consumed) }
        let earlier = fields.count < earlierFields.count ? earlierFields[fields.count] : nil
        do {
            let parsed = try HTTP1FieldLine.parse(line, reusing: earlier)
            // Room for as many fields as the connection's last request had: a browser's
            // dozen would otherwise grow the array four times.
            if fields.capacity == 0 { fields.reserveCapacity(max(4, earlierFields.count)) }
            summary.note(parsed)
            fields.append(parsed.field)
            return nil
        } catch {
            return fail(HTTP1LineReader.refusal(error, of: line), consumed: consumed)
        }
    }

    /// Counts a header or trailer field line: the error when it is one too many (or names its
    /// bare CR, as any refused line does).
    private mutating func countField(_ line: Span<UInt8>) -> HTTP1ParseError? {
        guard fieldCount < limits.maxHeaderCount else {
            return HTTP1LineReader.refusal(.tooManyFields(limit: limits.maxHeaderCount), of: line)
        }
        fieldCount += 1
        return nil
    }

    /// A trailer field: checked and counted as a header field, then dropped.
    private mutating func trailerLine(_ line: Span<UInt8>, consumed: Int) -> HTTP1ParseStep? {
        if let tooMany = countField(line) { return fail(tooMany, consumed: consumed) }
        do {
            _ = try HTTP1FieldLine.parse(line)
            return nil
        } catch {
            return fail(HTTP1LineReader.refusal(error, of: line), consumed: consumed)
        }
    }

    /// The empty line after the header fields: the head's rules, then the body, if any.
    private mutating func headEnded(consumed: Int) -> HTTP1ParseStep? {
        guard let requestLine else { return fail(.malformed("a head without a request line"), consumed: consumed) }
        let parsed: HTTP1Head
        do {
            parsed = try HTTP1HeadRules.head(requestLine, summary: summary, limits: limits)
        } catch {
            return fail(error, consumed: consumed)
        }
        switch parsed.framing {
        case .none, .length(0):
            // Straight to the caller: a head kept only to be taken back costs two copies.
            return complete(consume parsed, consumed: consumed)
        case .length(let count):
            // Up to 64 KiB ahead: a head alone must not reserve the body limit.
            body.reserveCapacity(min(count, 64 * 1024))
            phase = .fixedBody(remaining: count)
        case .chunked:
            phase = .chunkSizeLine
        }
        head = consume parsed
        return nil
    }

    // MARK: - The body

    private mutating func bodyBytes(_ bytes: Span<UInt8>, at position: inout Int, remaining: Int) -> HTTP1ParseStep? {
        let count = min(remaining, bytes.count - position)
        append(bytes, from: position, count: count)
        position += count
        if count == remaining { return complete(consumed: position) }
        phase = .fixedBody(remaining: remaining - count)
        return nil
    }

    private mutating func chunkSizeLine(_ bytes: Span<UInt8>, at position: inout Int) -> HTTP1ParseStep? {
        let start = position
        switch lines.scan(bytes, from: start, budget: HTTP1Limits.maxChunkSizeLineBytes) {
        case .incomplete:
            position = bytes.count
            return nil
        case .tooLong(let end):
            return fail(
                .malformedChunkedBody("a chunk size line is longer than \(HTTP1Limits.maxChunkSizeLineBytes) bytes"),
                consumed: end)
        case .ended(let lineFeed, _):
            position = lineFeed + 1
            let piece = bytes.extracting(start..<lineFeed)
            guard lines.isCarrying else { return chunkSizeLine(piece, consumed: position) }
            let whole = lines.takeLine(ending: piece)
            defer { lines.giveBack(whole) }
            let all = whole[...]
            return chunkSizeLine(all.span, consumed: position)
        }
    }

    /// A whole chunk size line (its LF excluded): the next chunk's size, or the last chunk.
    private mutating func chunkSizeLine(_ raw: Span<UInt8>, consumed: Int) -> HTTP1ParseStep? {
        let line = raw.extracting(first: HTTP1LineReader.contentLength(of: raw))
        if line.isEmpty { return fail(.malformedChunkedBody("a chunk size line is empty"), consumed: consumed) }
        switch HTTP1ChunkSizeLine.size(
            line, budget: limits.maxBodyBytes - body.count, maxBodyBytes: limits.maxBodyBytes)
        {
        case .failure(let error): return fail(HTTP1LineReader.refusal(error, of: line), consumed: consumed)
        case .success(0): phase = .trailerLines
        case .success(let size): phase = .chunkData(remaining: size)
        }
        return nil
    }

    private mutating func chunkData(_ bytes: Span<UInt8>, at position: inout Int, remaining: Int) -> HTTP1ParseStep? {
        let count = min(remaining, bytes.count - position)
        append(bytes, from: position, count: count)
        position += count
        phase = count == remaining ? .chunkDataEnd(sawCarriageReturn: false) : .chunkData(remaining: remaining - count)
        return nil
    }

    private mutating func chunkDataEnd(
        _ bytes: Span<UInt8>, at position: inout Int, sawCarriageReturn: Bool
    ) -> HTTP1ParseStep? {
        let byte = bytes[position]
        position += 1
        if byte == HTTP1Syntax.lineFeed {
            phase = .chunkSizeLine
        } else if byte == HTTP1Syntax.carriageReturn, !sawCarriageReturn {
            phase = .chunkDataEnd(sawCarriageReturn: true)
        } else {
            return fail(.malformedChunkedBody("chunk data is not followed by CRLF"), consumed: position)
        }
        return nil
    }

    private mutating func append(_ bytes: Span<UInt8>, from start: Int, count: Int) {
        UTF8Bytes.append(bytes.extracting(start..<(start + count)), to: &body)
    }

    // MARK: - Endings

    private mutating func complete(consumed: Int) -> HTTP1ParseStep {
        // Taken, not copied: the head goes to the caller, and the parser starts over.
        guard let head = head.take() else { return fail(.malformed("a request without a head"), consumed: consumed) }
        return complete(head, consumed: consumed)
    }

    /// The request with this head, the fields and the body read, for the caller; the parser starts over.
    private mutating func complete(_ head: consuming HTTP1Head, consumed: Int) -> HTTP1ParseStep {
        guard let line = requestLine else {
            return fail(.malformed("a request without a request line"), consumed: consumed)
        }
        let path: String
        let query: String?
        if line.targetIsPlainPath {
            // Nearly every request: its target is its path, no splitting needed.
            (path, query) = (line.target, nil)
        } else {
            // A client repeating a target with a query shares the earlier request's path and
            // query strings rather than making (and, past 15 bytes, allocating) them again.
            // The same bytes made the earlier target not a plain path either, so it was split.
            let split =
                line.reusesEarlierTarget
                ? earlierSplit ?? HTTPRequest.split(target: line.target) : HTTPRequest.split(target: line.target)
            (path, query) = split
            earlierSplit = split
        }
        var request = HTTPRequest(
            method: line.method, target: line.target, path: path, query: query, headers: HTTPHeaders(fields), body: body
        )
        if let name = line.unknownMethodName { request.methodName = name }
        startOver()
        return .complete(head, request, consumed: consumed)
    }

    private mutating func fail(_ error: HTTP1ParseError, consumed: Int) -> HTTP1ParseStep {
        failure = error
        head = nil
        return .failed(error, consumed: consumed)
    }
}
