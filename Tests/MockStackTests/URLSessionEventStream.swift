import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Server Events stream read with URLSession as an app would: a data task whose delegate gets
/// the body as it arrives. (`URLSession.bytes(for:)` is not in swift-corelibs-foundation, so a
/// delegate serves on Linux and macOS alike.)
final class URLSessionEventStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var text = ""
    private var status: Int?
    private var contentType: String?
    private var finished = false
    private var session: URLSession?

    /// Starts `GET url`.
    init(url: URL) {
        super.init()
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        self.session = session
        session.dataTask(with: url).resume()
    }

    /// The `data:` lines of the frames so far, once at least `count` have come or the stream
    /// ended or five seconds passed; with the answer's status and content type.
    func frames(_ count: Int) -> (status: Int?, contentType: String?, frames: [String]) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(5)
        while Self.frames(in: text).count < count, !finished, condition.wait(until: deadline) {}
        return (status, contentType, Self.frames(in: text))
    }

    /// Ends the task and the session.
    func cancel() { session?.invalidateAndCancel() }

    private static func frames(in text: String) -> [String] {
        text.components(separatedBy: "\n\n").dropLast().compactMap { frame in
            frame.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        condition.lock()
        status = http?.statusCode
        contentType = http?.value(forHTTPHeaderField: "Content-Type")
        condition.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        condition.lock()
        text += String(decoding: data, as: UTF8.self)
        condition.broadcast()
        condition.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
