import CCurl
import Logging
import MockStackCore

/// One request on its easy handle, on the upstream thread (``LibcurlClient``): the handle's
/// options, the header and body callbacks, and what they gathered. The client keeps it while
/// libcurl runs it; the callbacks reach it through its unretained reference.
final class LibcurlTransfer {
    let request: UpstreamRequest
    let completion: @Sendable (Result<UpstreamReply, UpstreamTransferError>) -> Void
    /// What every transfer's answer holds together; this one's share is ``reserved``.
    private let budget: AnswerBudget
    /// The room ``body`` was given, taken from ``budget``: memory held is room, not bytes received.
    private var reserved = 0
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// Where libcurl writes a failure's details (CURLOPT_ERRORBUFFER).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private var fields = HTTPHeaders()
    private var body: [UInt8] = []
    private var bodyOverLimit = false
    private var bodyOverBudget = false

    init(
        request: UpstreamRequest, budget: AnswerBudget,
        completion: @escaping @Sendable (Result<UpstreamReply, UpstreamTransferError>) -> Void
    ) {
        self.request = request
        self.budget = budget
        self.completion = completion
        errorBuffer.initialize(to: 0)
    }

    /// The transfer behind a callback's user data (the client keeps it until it is freed).
    private static func fromOpaque(_ pointer: UnsafeMutableRawPointer) -> LibcurlTransfer {
        Unmanaged<LibcurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Makes the easy handle and sets every option: the request, the limits, the callbacks.
    /// - Throws: when libcurl refuses one (the log names it); the handle is then freed by ``free(_:)``.
    func prepare(_ libcurl: Libcurl, logger: Logger) throws(UpstreamTransferError) -> UnsafeMutableRawPointer {
        let api = libcurl.api
        guard let easy = mockstack_curl_easy_init(api) else {
            throw UpstreamTransferError(.failed, "was not asked: libcurl could not make a transfer")
        }
        self.easy = easy
        func check(_ code: CURLcode, _ option: StaticString) throws(UpstreamTransferError) {
            guard logger.succeeded(code, option, libcurl) else {
                throw UpstreamTransferError(
                    .failed, "was not asked: libcurl refused \(option) (\(libcurl.describe(code)))")
            }
        }
        let timeout = request.timeoutSeconds * 1000
        try check(mockstack_curl_set_string(api, easy, CURLOPT_URL, request.url), "CURLOPT_URL")
        // The path goes as given: libcurl would otherwise resolve `..` and climb out of a base path.
        try check(mockstack_curl_set_long(api, easy, CURLOPT_PATH_AS_IS, 1), "CURLOPT_PATH_AS_IS")
        // Signals are the server's (and libcurl's threaded resolver needs no SIGALRM).
        try check(mockstack_curl_set_long(api, easy, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        // A redirect is the client's to follow: its 3xx is the answer.
        try check(mockstack_curl_set_long(api, easy, CURLOPT_FOLLOWLOCATION, 0), "CURLOPT_FOLLOWLOCATION")
        try check(mockstack_curl_set_long(api, easy, CURLOPT_TIMEOUT_MS, timeout), "CURLOPT_TIMEOUT_MS")
        try check(mockstack_curl_set_long(api, easy, CURLOPT_CONNECTTIMEOUT_MS, timeout), "CURLOPT_CONNECTTIMEOUT_MS")
        // Refused before the body when the upstream announces a longer one.
        try check(
            mockstack_curl_set_offset(api, easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumBodyBytes)),
            "CURLOPT_MAXFILESIZE_LARGE")
        try check(mockstack_curl_set_pointer(api, easy, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try setMethodAndBody(api, easy, check: check)
        headerList = try headerLines(api)
        try check(mockstack_curl_set_pointer(api, easy, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(
            mockstack_curl_set_callback(
                api, easy, CURLOPT_HEADERFUNCTION,
                { data, size, count, user in
                    guard let data, let user else { return 0 }
                    LibcurlTransfer.fromOpaque(user).receivedHeaderLine(
                        UnsafeRawBufferPointer(start: data, count: size * count))
                    return size * count
                }), "CURLOPT_HEADERFUNCTION")
        try check(mockstack_curl_set_pointer(api, easy, CURLOPT_HEADERDATA, me), "CURLOPT_HEADERDATA")
        try check(
            mockstack_curl_set_callback(
                api, easy, CURLOPT_WRITEFUNCTION,
                { data, size, count, user in
                    guard let data, let user else { return 0 }
                    // Anything but the length handed over ends the transfer (CURLE_WRITE_ERROR).
                    return LibcurlTransfer.fromOpaque(user).receivedBody(
                        UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
                }), "CURLOPT_WRITEFUNCTION")
        try check(mockstack_curl_set_pointer(api, easy, CURLOPT_WRITEDATA, me), "CURLOPT_WRITEDATA")
        return easy
    }

    /// GET and HEAD as libcurl knows them; any other method by name, with the body when there
    /// is one, and always for POST, PUT and PATCH (an empty one is `Content-Length: 0`).
    private func setMethodAndBody(
        _ api: UnsafePointer<mockstack_curl>, _ easy: UnsafeMutableRawPointer,
        check: (CURLcode, StaticString) throws(UpstreamTransferError) -> Void
    ) throws(UpstreamTransferError) {
        switch request.method {
        case "GET" where request.body.isEmpty:
            try check(mockstack_curl_set_long(api, easy, CURLOPT_HTTPGET, 1), "CURLOPT_HTTPGET")
            return
        case "HEAD":
            // No body is read after a HEAD's head.
            try check(mockstack_curl_set_long(api, easy, CURLOPT_NOBODY, 1), "CURLOPT_NOBODY")
            return
        default:
            break
        }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            try check(
                mockstack_curl_set_offset(api, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)),
                "CURLOPT_POSTFIELDSIZE_LARGE")
            // Copied by libcurl: the request's bytes need not outlive this call.
            let copied =
                request.body.isEmpty
                ? mockstack_curl_set_string(api, easy, CURLOPT_COPYPOSTFIELDS, "")
                : request.body.withUnsafeBytes {
                    mockstack_curl_set_pointer(api, easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
                }
            try check(copied, "CURLOPT_COPYPOSTFIELDS")
        }
        try check(mockstack_curl_set_string(api, easy, CURLOPT_CUSTOMREQUEST, request.method), "CURLOPT_CUSTOMREQUEST")
    }

    /// The request's fields as libcurl's list, with the fields libcurl would add on its own
    /// switched off (`Name:` removes one; `Name;` sends one with an empty value).
    private func headerLines(
        _ api: UnsafePointer<mockstack_curl>
    ) throws(UpstreamTransferError) -> UnsafeMutablePointer<curl_slist>? {
        var lines = request.headerFields.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        let fields = request.headerFields
        // The body goes with the head: no `Expect: 100-continue` and its wait.
        lines.append("Expect:")
        if !fields.contains("Accept-Encoding") { lines.append("Accept-Encoding: identity") }
        if !fields.contains("Accept") { lines.append("Accept:") }
        if !fields.contains("Content-Type") { lines.append("Content-Type:") }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let longer = mockstack_curl_slist_append(api, list, line) else {
                mockstack_curl_slist_free_all(api, list)
                throw UpstreamTransferError(.failed, "was not asked: libcurl could not hold its header fields")
            }
            list = longer
        }
        return list
    }

    /// One line of the answer's head, CRLF included. A status line starts the fields afresh: an
    /// interim answer's (`103 Early Hints`) are not the final one's.
    private func receivedHeaderLine(_ line: UnsafeRawBufferPointer) {
        var bytes = line[...]
        while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") {
            bytes = bytes.dropLast()
        }
        if bytes.starts(with: "HTTP/".utf8) {
            fields = HTTPHeaders()
            return
        }
        guard let first = bytes.first else { return }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            // An obsolete folded line continues the field before it.
            var all = fields.fields
            guard !all.isEmpty else { return }
            all[all.count - 1].value += " " + Self.trimmed(bytes)
            fields = HTTPHeaders(all)
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        fields.add(String(decoding: bytes[..<colon], as: UTF8.self), Self.trimmed(bytes[(colon + 1)...]))
    }

    /// A field value without the whitespace around it.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        var value = bytes
        while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            value = value.dropFirst()
        }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            value = value.dropLast()
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Some of the body; false once it is longer than the request allows, or than every
    /// answer arriving together may hold (``AnswerBudget``).
    private func receivedBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= request.maximumBodyBytes else {
            bodyOverLimit = true
            dropBody()
            return false
        }
        let needed = body.count + chunk.count
        if needed > reserved {
            // Grown here rather than by the array's own policy, so that the room is counted.
            let room = min(max(needed, reserved * 2), request.maximumBodyBytes)
            guard budget.take(room - reserved) else {
                bodyOverBudget = true
                dropBody()
                return false
            }
            body.reserveCapacity(room)
            reserved = room
        }
        body.append(contentsOf: chunk)
        return true
    }

    /// Lets the body go, and its share of the budget.
    private func dropBody() {
        budget.give(reserved)
        reserved = 0
        body = []
    }

    /// The answer, or why there is none, once libcurl has ended the transfer with `code`.
    func outcome(_ code: CURLcode, _ libcurl: Libcurl) -> Result<UpstreamReply, UpstreamTransferError> {
        if code == CURLE_OK, let easy {
            var status = 0
            let read = mockstack_curl_get_long(libcurl.api, easy, CURLINFO_RESPONSE_CODE, &status)
            if read == CURLE_OK, (100...999).contains(status) {
                return .success(UpstreamReply(status: status, headerFields: fields, body: body))
            }
            return .failure(UpstreamTransferError(.notHTTP, "did not answer in HTTP"))
        }
        if bodyOverLimit || code == CURLE_FILESIZE_EXCEEDED {
            return .failure(UpstreamTransferError(.tooLarge, "answered more than \(request.maximumBodyBytes) bytes"))
        }
        if bodyOverBudget {
            return .failure(
                UpstreamTransferError(
                    .tooLarge,
                    "answered while other answers were arriving: together they would have "
                        + "held more than \(budget.limit) bytes, the most the proxy holds at once"))
        }
        let details = errorBuffer.pointee == 0 ? libcurl.describe(code) : String(cString: errorBuffer)
        switch code {
        case CURLE_COULDNT_CONNECT: return .failure(UpstreamTransferError(.refused, "refused the connection"))
        case CURLE_COULDNT_RESOLVE_HOST:
            return .failure(UpstreamTransferError(.hostNotFound, "names a host that cannot be found"))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(UpstreamTransferError(.timedOut, "did not answer within \(request.timeoutSeconds) s"))
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return .failure(UpstreamTransferError(.closed, "closed the connection before answering"))
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .failure(UpstreamTransferError(.notHTTP, "did not answer in HTTP"))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE:
            return .failure(UpstreamTransferError(.tls, "could not be reached over TLS (\(details))"))
        default:
            return .failure(UpstreamTransferError(.failed, "failed (\(details))"))
        }
    }

    /// Frees the handle, its field list and its error buffer, and gives back the body's share of
    /// the budget (the answer, handed over, is no longer the thread's to hold); after the multi
    /// handle let it go.
    func free(_ libcurl: Libcurl) {
        budget.give(reserved)
        reserved = 0
        if let easy { mockstack_curl_easy_cleanup(libcurl.api, easy) }
        easy = nil
        mockstack_curl_slist_free_all(libcurl.api, headerList)
        headerList = nil
    }

    deinit { errorBuffer.deallocate() }
}
