import MockStackCore

/// What one journal entry keeps of a request besides its body: however long a
/// request's target, however many or large its headers and multipart parts, an entry holds at
/// most about 45 KiB of them (path and query 2 KiB each, each side's headers 8 KiB, 32 parts of 768 B),
/// plus the two bodies (`--journal-body-bytes` each, the answer's held whole up to about four
/// times that and cut when read). Whatever is cut
/// is marked in the entry's JSON (README, "The request journal").
enum JournalBounds {
    /// UTF-8 bytes of the path kept (`"pathTruncated": true` when cut).
    static let pathBytes = 2_048
    /// UTF-8 bytes of the raw query kept (`"queryTruncated": true` when cut).
    static let queryBytes = 2_048
    /// UTF-8 bytes of each header value kept.
    static let headerValueBytes = 1_024
    /// UTF-8 bytes of header names and (cut) values kept in all; the fields after are dropped.
    /// A cut value or a dropped field sets `"headersTruncated": true`.
    static let headerBytes = 8_192
    /// Multipart parts described (`"partsDropped": N` counts the rest).
    static let parts = 32
    /// UTF-8 bytes kept of each part's name, file name and Content-Type (`"truncated": true` on
    /// a part when one was cut).
    static let partFieldBytes = 256

    /// What was cut from a request.
    struct Cuts: Sendable, Equatable {
        var path = false
        var query = false
        var headers = false
    }

    /// The request as an entry keeps it: path, query and headers within their bounds and the
    /// body cut at `bodyLimit`, and what it weighs there (``weight(path:query:headerCount:body:)``).
    /// A request within every bound is returned as it is (its storage shared, not copied). Each
    /// of its fields is read once: every read from the request's box is a retain and a release.
    static func kept(_ request: HTTPRequest, bodyLimit: Int) -> (request: HTTPRequest, cuts: Cuts, bytes: Int) {
        let path = request.path
        let query = request.query
        let headers = request.headers
        let body = request.body
        var cuts = Cuts()
        let cutPath = cut(path, pathBytes)
        let cutQuery = query.flatMap { cut($0, queryBytes) }
        cuts.path = cutPath != nil
        cuts.query = cutQuery != nil
        let boundedHeaders = boundedHeaders(headers)
        cuts.headers = boundedHeaders != nil
        guard cuts.path || cuts.query || cuts.headers else {
            var kept = request
            if body.count > bodyLimit { kept.body = Array(body.prefix(bodyLimit)) }
            return (
                kept, cuts,
                weight(path: path, query: query, headerCount: headers.count, body: min(body.count, bodyLimit))
            )
        }
        // A new request, so that nothing of the original's long strings stays referenced.
        let keptPath = cutPath ?? path
        let keptQuery = cutQuery ?? query
        let keptHeaders = boundedHeaders ?? headers
        let kept = HTTPRequest(
            method: request.method, target: keptPath + (keptQuery.map { "?" + $0 } ?? ""), path: keptPath,
            query: keptQuery, headers: keptHeaders, body: Array(body.prefix(bodyLimit)),
            mountPath: request.mountPath)
        return (
            kept, cuts,
            weight(path: keptPath, query: keptQuery, headerCount: keptHeaders.count, body: min(body.count, bodyLimit))
        )
    }

    /// About what a kept request or response holds in memory, what the journals' byte limits
    /// count: its body exactly, its path and query, and its headers by the most each may keep
    /// (counted at their bound when there are many, so that recording stays a few additions).
    static func weight(path: String = "", query: String? = nil, headerCount: Int, body: Int) -> Int {
        body + path.utf8.count + (query?.utf8.count ?? 0) + min(headerBytes, 128 * headerCount)
    }

    /// The response as an entry keeps it, and how many bytes of its body the entry shows (the
    /// first `bodyLimit`). Itself, its box shared, when its headers are within bounds and its
    /// body at most about four times `bodyLimit`: a longer body is cut only when the entry is
    /// read, and the entry weighs the whole body it holds. Else a copy with both cut, weighing
    /// what it keeps. Also whether the headers were cut, and the body's type as sent when they were.
    static func kept(_ response: HTTPResponse, bodyLimit: Int) -> KeptResponse {
        let headers = response.headers
        let bounded = boundedHeaders(headers)
        let body = response.body
        let shown = min(body.count, bodyLimit)
        guard bounded != nil || body.count / 4 > bodyLimit else {
            return KeptResponse(
                response: response, headersTruncated: false, bodyType: .inKeptHeaders, bodyShown: shown,
                bytes: weight(headerCount: headers.count, body: body.count))
        }
        let keptHeaders = bounded ?? headers
        var kept = HTTPResponse(
            status: response.status, reason: response.reason, headers: keptHeaders,
            body: Array(body.prefix(bodyLimit)), delivery: response.delivery)
        kept.operation = response.operation
        return KeptResponse(
            response: kept, headersTruncated: bounded != nil,
            bodyType: bounded == nil ? .inKeptHeaders : .noted(contentType(of: headers)), bodyShown: shown,
            bytes: weight(headerCount: keptHeaders.count, body: shown))
    }

    /// A response as an entry keeps it, what `kept(_:bodyLimit:)` makes of one. A struct, not a
    /// tuple: a tuple of these was destroyed through the runtime's generic value witnesses.
    struct KeptResponse {
        var response: HTTPResponse
        var headersTruncated: Bool
        var bodyType: JournalEntry.BodyType
        var bodyShown: Int
        var bytes: Int
    }

    /// The first `Content-Type` within ``headerValueBytes``.
    static func contentType(of headers: HTTPHeaders) -> String? {
        headers["Content-Type"].map { cut($0, headerValueBytes) ?? $0 }
    }

    /// The headers within ``headerValueBytes`` and ``headerBytes``, or nil when they already are.
    static func boundedHeaders(_ headers: HTTPHeaders) -> HTTPHeaders? {
        var total = 0
        var within = true
        // By index, read in place: a `for field in` loop copies each field (a retain and a
        // release of both its strings), and this runs over every request's and answer's fields.
        let fields = headers.fields
        for index in fields.indices {
            let valueBytes = fields[index].value.utf8.count
            total += fields[index].name.utf8.count + min(valueBytes, headerValueBytes)
            if valueBytes > headerValueBytes || total > headerBytes {
                within = false
                break
            }
        }
        if within { return nil }
        var kept = HTTPHeaders()
        total = 0
        for field in headers {
            let value = cut(field.value, headerValueBytes) ?? field.value
            total += field.name.utf8.count + value.utf8.count
            guard total <= headerBytes else { break }
            kept.add(field.name, value)
        }
        return kept
    }

    /// The parts an entry describes: the first ``parts``, each field within ``partFieldBytes``,
    /// with how many more there were.
    static func boundedParts(_ summaries: [MultipartForm.Summary]) -> (parts: [JournalEntry.Part], dropped: Int) {
        let parts = summaries.prefix(Self.parts).map { summary in
            let name = cut(summary.name, partFieldBytes)
            let fileName = summary.fileName.flatMap { cut($0, partFieldBytes) }
            let contentType = summary.contentType.flatMap { cut($0, partFieldBytes) }
            return JournalEntry.Part(
                name: name ?? summary.name, fileName: fileName ?? summary.fileName,
                contentType: contentType ?? summary.contentType, size: summary.size,
                truncated: name != nil || fileName != nil || contentType != nil)
        }
        return (parts, summaries.count - parts.count)
    }

    /// `text` cut to at most `limit` UTF-8 bytes, at the start of a scalar; nil when it fits.
    static func cut(_ text: String, _ limit: Int) -> String? {
        let bytes = text.utf8
        guard bytes.count > limit else { return nil }
        var end = bytes.index(bytes.startIndex, offsetBy: limit)
        // Back to the first byte of the scalar that would be split.
        while end > bytes.startIndex, bytes[end] & 0xC0 == 0x80 { end = bytes.index(before: end) }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
