import MockStackCore

/// Feeding bytes to an ``HTTP1RequestParser`` the way a transport does, for the HTTP1 tests.
enum HTTP1Feed {
    /// What became of one request on a connection.
    enum Outcome: Equatable, CustomStringConvertible {
        case request(HTTP1Head, HTTPRequest)
        case failure(HTTP1ParseError)

        var description: String {
            switch self {
            case .request(let head, let request):
                "request(\(request.method) \(request.target) \(head.framing), body \(request.body.count) bytes)"
            case .failure(let error): "failure(\(error.status) \(error.message))"
            }
        }
    }

    /// One call with every byte at once.
    static func parse(_ bytes: [UInt8], limits: HTTP1Limits = HTTP1Limits()) -> HTTP1ParseStep {
        var parser = HTTP1RequestParser(limits: limits)
        return bytes.withUnsafeBytes { parser.parse($0) }
    }

    /// One call with the text's UTF-8 bytes.
    static func parse(_ text: String, limits: HTTP1Limits = HTTP1Limits()) -> HTTP1ParseStep {
        parse(Array(text.utf8), limits: limits)
    }

    /// Every request the bytes hold, arriving in pieces of the given sizes (the last piece takes
    /// what is left): bytes a `.complete` did not consume are fed again after `reset()`, as a
    /// transport does with pipelined requests. Stops at the first failure; a request still
    /// incomplete at the end is left out.
    static func outcomes(_ bytes: [UInt8], pieces: [Int], limits: HTTP1Limits = HTTP1Limits()) -> [Outcome] {
        var parser = HTTP1RequestParser(limits: limits)
        var outcomes: [Outcome] = []
        var pending: [UInt8] = []
        var offset = 0
        var pieceSizes = pieces[...]
        while offset < bytes.count {
            let size = min(max(1, pieceSizes.popFirst() ?? bytes.count), bytes.count - offset)
            pending += bytes[offset..<(offset + size)]
            offset += size
            while true {
                let step = pending.withUnsafeBytes { parser.parse($0) }
                switch step {
                case .needMore(let consumed):
                    precondition(consumed == pending.count, "needMore consumed \(consumed) of \(pending.count) bytes")
                    pending.removeAll()
                case .complete(let head, let request, let consumed):
                    outcomes.append(.request(head, request))
                    pending.removeFirst(consumed)
                    parser.reset()
                case .failed(let error, _):
                    outcomes.append(.failure(error))
                    return outcomes
                }
                if pending.isEmpty { break }
                if case .needMore = step { break }
            }
        }
        return outcomes
    }

    /// The same, whole.
    static func outcomes(_ text: String, limits: HTTP1Limits = HTTP1Limits()) -> [Outcome] {
        outcomes(Array(text.utf8), pieces: [], limits: limits)
    }
}

extension HTTP1ParseStep {
    /// The error of a `.failed` step.
    var error: HTTP1ParseError? {
        if case .failed(let error, _) = self { return error }
        return nil
    }

    /// The request of a `.complete` step.
    var request: HTTPRequest? {
        if case .complete(_, let request, _) = self { return request }
        return nil
    }

    /// The head of a `.complete` step.
    var head: HTTP1Head? {
        if case .complete(let head, _, _) = self { return head }
        return nil
    }

    /// How many bytes the step consumed.
    var consumed: Int {
        switch self {
        case .needMore(let consumed), .complete(_, _, let consumed), .failed(_, let consumed): consumed
        }
    }
}

extension HTTP1ParseError {
    /// A 400 with the transport's "Malformed request: " prefix.
    static func badRequest(_ problem: String) -> Self { Self(status: 400, message: "Malformed request: " + problem) }
    /// A 400 for a chunked body.
    static func badChunk(_ problem: String) -> Self { Self(status: 400, message: "Malformed chunked body: " + problem) }
}
