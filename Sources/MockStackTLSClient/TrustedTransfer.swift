import CLibcurlEasy

/// One HTTPS exchange with libcurl that trusts the CA it is given, and only it, for that request
/// (`CURLOPT_CAINFO_BLOB`): the head and the body pieces are handed over as they arrive, so a
/// streamed answer (Server-Sent Events) streams. Runs on the calling thread until the answer
/// ends, fails, or `cancelled` says so.
struct TrustedTransfer {
    var method: String
    var url: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]?
    /// The CA, as PEM.
    var authority: [UInt8]
    var timeoutMilliseconds: Int

    /// libcurl's option and info numbers (curl.h: CURLOPTTYPE_* + n).
    private enum Option {
        static let writeData: Int32 = 10_001, url: Int32 = 10_002, writeFunction: Int32 = 20_011
        static let httpHeader: Int32 = 10_023, headerData: Int32 = 10_029, customRequest: Int32 = 10_036
        static let noProgress: Int32 = 43, noBody: Int32 = 44, progressData: Int32 = 10_057
        static let headerFunction: Int32 = 20_079, httpVersion: Int32 = 84, noSignal: Int32 = 99
        static let postFieldSizeLarge: Int32 = 30_120, timeoutMilliseconds: Int32 = 155
        static let copyPostFields: Int32 = 10_165, progressFunction: Int32 = 20_219, caInfoBlob: Int32 = 40_309
        static let http11: Int = 2, blobCopy: UInt32 = 1
        static let responseCode: Int32 = 0x200002
    }

    /// What the callbacks reach through libcurl's `void *`.
    final class Receiver {
        var statusLine: String?
        var headers: [(name: String, value: String)] = []
        var headDelivered = false
        let head: (Int, [(name: String, value: String)]) -> Void
        let data: ([UInt8]) -> Void
        let cancelled: () -> Bool

        init(
            head: @escaping (Int, [(name: String, value: String)]) -> Void, data: @escaping ([UInt8]) -> Void,
            cancelled: @escaping () -> Bool
        ) {
            self.head = head
            self.data = data
            self.cancelled = cancelled
        }

        /// A header line: the status line starts a head (an interim `100` one is dropped at its
        /// blank line), the blank line ends it.
        func headerLine(_ line: String) {
            // "\r\n" is one Character: trimmed as the line-end characters it may be.
            var trimmed = line
            while let last = trimmed.last, last == "\r\n" || last == "\n" || last == "\r" { trimmed.removeLast() }
            if trimmed.hasPrefix("HTTP/") {
                statusLine = trimmed
                headers = []
            } else if trimmed.isEmpty, let statusLine {
                let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
                if status >= 200 {
                    head(status, headers)
                    headDelivered = true
                }
            } else if let colon = trimmed.firstIndex(of: ":") {
                let value = trimmed[trimmed.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
                headers.append((String(trimmed[..<colon]), String(value)))
            }
        }
    }

    /// Runs the exchange. - Returns: nil when it ended whole, else why not.
    func run(
        head: @escaping (Int, [(name: String, value: String)]) -> Void, data: @escaping ([UInt8]) -> Void,
        cancelled: @escaping () -> Bool
    ) -> TrustedTransferError? {
        let curl: LibcurlEasy
        switch LibcurlEasy.shared {
        case .success(let opened): curl = opened
        case .failure(let error): return error
        }
        let api = curl.api
        guard let easy = api.pointee.easy_init() else { return TrustedTransferError("curl_easy_init failed") }
        defer { api.pointee.cleanup(easy) }
        let receiver = Receiver(head: head, data: data, cancelled: cancelled)
        let context = Unmanaged.passUnretained(receiver).toOpaque()
        var list: UnsafeMutableRawPointer?
        for (name, value) in headers { list = api.pointee.slist_append(list, "\(name): \(value)") }
        // Without a body, no `Expect: 100-continue` and no type libcurl would add.
        list = api.pointee.slist_append(list, "Expect:")
        defer { api.pointee.slist_free_all(list) }
        var authority = authority
        let code: Int32 = authority.withUnsafeMutableBytes { pem in
            var blob = mockstack_easy_blob(data: pem.baseAddress, len: pem.count, flags: Option.blobCopy)
            var failed: Int32 = 0
            func set(_ status: Int32) { if failed == 0 { failed = status } }
            set(mockstack_easy_set_pointer(api, easy, Option.url, url))
            set(mockstack_easy_set_pointer(api, easy, Option.customRequest, method))
            if method == "HEAD" { set(mockstack_easy_set_long(api, easy, Option.noBody, 1)) }
            set(mockstack_easy_set_pointer(api, easy, Option.httpHeader, list))
            set(mockstack_easy_set_long(api, easy, Option.httpVersion, Option.http11))
            set(mockstack_easy_set_long(api, easy, Option.noSignal, 1))
            set(mockstack_easy_set_long(api, easy, Option.timeoutMilliseconds, timeoutMilliseconds))
            set(withUnsafePointer(to: &blob) { mockstack_easy_set_pointer(api, easy, Option.caInfoBlob, $0) })
            if let body {
                set(mockstack_easy_set_offset(api, easy, Option.postFieldSizeLarge, Int64(body.count)))
                set(
                    body.withUnsafeBytes {
                        mockstack_easy_set_pointer(api, easy, Option.copyPostFields, $0.baseAddress)
                    })
            }
            set(mockstack_easy_set_pointer(api, easy, Option.headerData, context))
            set(
                mockstack_easy_set_data_callback(api, easy, Option.headerFunction) { bytes, size, count, context in
                    guard let bytes, let context else { return 0 }
                    let receiver = Unmanaged<Receiver>.fromOpaque(context).takeUnretainedValue()
                    let line = UnsafeRawBufferPointer(start: bytes, count: size * count)
                    receiver.headerLine(String(decoding: line, as: UTF8.self))
                    return size * count
                })
            set(mockstack_easy_set_pointer(api, easy, Option.writeData, context))
            set(
                mockstack_easy_set_data_callback(api, easy, Option.writeFunction) { bytes, size, count, context in
                    guard let bytes, let context else { return 0 }
                    let receiver = Unmanaged<Receiver>.fromOpaque(context).takeUnretainedValue()
                    guard !receiver.cancelled() else { return 0 }
                    receiver.data(Array(UnsafeRawBufferPointer(start: bytes, count: size * count)))
                    return size * count
                })
            // The progress callback is called about once a second even while nothing arrives,
            // so a cancelled stream that has gone quiet still ends.
            set(mockstack_easy_set_long(api, easy, Option.noProgress, 0))
            set(mockstack_easy_set_pointer(api, easy, Option.progressData, context))
            set(
                mockstack_easy_set_progress_callback(api, easy, Option.progressFunction) { context, _, _, _, _ in
                    guard let context else { return 1 }
                    return Unmanaged<Receiver>.fromOpaque(context).takeUnretainedValue().cancelled() ? 1 : 0
                })
            guard failed == 0 else { return failed }
            return withExtendedLifetime(receiver) { api.pointee.perform(easy) }
        }
        guard code == 0 else { return TrustedTransferError("\(url): \(curl.describe(code))", code: code) }
        if !receiver.headDelivered {
            var status = 0
            _ = mockstack_easy_get_long(api, easy, Option.responseCode, &status)
            head(status, receiver.headers)
        }
        return nil
    }
}
