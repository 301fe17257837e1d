import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import MockStackCore

/// One listener on one loop: turns evhttp requests into ``HTTPRequest`` values, asks the
/// responder, and sends what it answers.
final class Endpoint {
    /// The worker owns its endpoints and frees them only when its loop has ended.
    unowned(unsafe) let worker: Worker
    let http: OpaquePointer
    /// evhttp's handle for the listening socket, used to stop accepting.
    let boundSocket: OpaquePointer
    let responder: any Responder
    let label: String
    /// Pauses accepting when descriptors run out (``AcceptBackoff``).
    let acceptBackoff: AcceptBackoff

    init(worker: Worker, http: OpaquePointer, boundSocket: OpaquePointer, spec: ListenerSpec, acceptBackoff: AcceptBackoff) {
        self.worker = worker
        self.http = http
        self.boundSocket = boundSocket
        self.acceptBackoff = acceptBackoff
        self.responder = spec.responder
        self.label = spec.label
    }

    func handle(_ raw: OpaquePointer) {
        let started = Clock.nowNanoseconds()
        worker.requestStarted()
        let tap = worker.noteDispatch(of: raw)
        let request = Self.makeRequest(raw)
        let response = RequestFraming.problem(method: request.method, headers: request.headers).map { problem in
            worker.logRejection(status: 400, bytes: 0)
            return HTTPResponse.json(400, bytes: worker.errorBody(400, "Malformed request: " + problem), headers: ["Connection": "close"])
        } ?? responder.respond(to: request)
        let exchange = Exchange(request: raw, tap: tap, method: request.method, target: request.target, started: started)
        deliver(response, exchange)
    }

    /// Copies what evhttp parsed into a plain value.
    static func makeRequest(_ raw: OpaquePointer) -> HTTPRequest {
        let method = method(of: evhttp_request_get_command(raw))
        let rawTarget = evhttp_request_get_uri(raw)
        let target = rawTarget.map { String(cString: $0) } ?? "/"
        // evhttp parsed the target before dispatching (it rejects what it cannot parse), so
        // take its path and query rather than splitting the target again.
        let uri = evhttp_request_get_evhttp_uri(raw)
        let rawQuery = uri.flatMap { evhttp_uri_get_query($0) }
        let rawPath = uri.flatMap { evhttp_uri_get_path($0) }
        // Most targets are a bare path: then the path shares the target's string.
        let path = rawPath.map { rawPath in
            rawQuery == nil && rawTarget.map({ strcmp($0, rawPath) == 0 }) == true ? target : String(cString: rawPath)
        } ?? ""
        let query = rawQuery.map { String(cString: $0) }
        var fields: [HTTPHeaders.Field] = []
        var entry = evhttp_request_get_input_headers(raw)?.pointee.tqh_first
        while let header = entry {
            fields.append(HTTPHeaders.Field(name: String(cString: header.pointee.key), value: String(cString: header.pointee.value)))
            entry = header.pointee.next.tqe_next
        }
        var body: [UInt8] = []
        if let input = evhttp_request_get_input_buffer(raw) {
            let length = evbuffer_get_length(input)
            if length > 0 {
                body = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                    count = max(0, Int(evbuffer_remove(input, buffer.baseAddress, length)))
                }
            }
        }
        return HTTPRequest(method: method, target: target, path: path, query: query, headers: HTTPHeaders(fields), body: body)
    }

    static func method(of command: evhttp_cmd_type) -> HTTPMethod {
        switch command {
        case EVHTTP_REQ_GET: .get
        case EVHTTP_REQ_HEAD: .head
        case EVHTTP_REQ_POST: .post
        case EVHTTP_REQ_PUT: .put
        case EVHTTP_REQ_PATCH: .patch
        case EVHTTP_REQ_DELETE: .delete
        case EVHTTP_REQ_OPTIONS: .options
        case EVHTTP_REQ_TRACE: .trace
        case EVHTTP_REQ_CONNECT: .connect
        default: .unknown
        }
    }
}

/// What one reply needs to remember while it is delivered, possibly over several loop turns.
struct Exchange {
    /// evhttp's request; valid until the reply ends (evhttp frees it then, or at a fault).
    let request: OpaquePointer
    /// The connection's watcher, paused while our reply is written.
    let tap: ConnectionTap?
    let method: HTTPMethod
    let target: String
    let started: UInt64

    var isHead: Bool { method == .head }

    /// Runs `write`, which sends our reply or part of it (straight to the socket, or through the
    /// connection's output), with the tap's output watch paused.
    func writingOwnReply(_ write: () -> Void) {
        if let tap { tap.whileWritingOwnReply(write) } else { write() }
    }
}
