import FuzzSupport
import MockStackCore

/// The HTTP/1.1 request parser: any bytes give the same requests and the same refusal whether
/// they arrive whole or a few at a time (the first byte picks how few), a refusal is one of the
/// statuses the parser documents, and no request is larger than the limits allow.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(start, count)
    let limits = HTTP1Limits(maxHeadBytes: 2048, maxHeaderCount: 16, maxBodyBytes: 8192)
    let whole = outcomes(of: bytes, pieceSize: max(1, bytes.count), limits: limits)
    let trickled = outcomes(of: bytes, pieceSize: 1 + Int(bytes.first ?? 0) % 7, limits: limits)
    Fuzz.require(whole == trickled, "fed whole: \(whole); in pieces: \(trickled)")
    return 0
}

/// The requests `bytes` hold, and the refusal that ended them if one did, fed in pieces of
/// `pieceSize` as a transport feeds them: what a request leaves unread goes to the next.
private func outcomes(of bytes: [UInt8], pieceSize: Int, limits: HTTP1Limits) -> [String] {
    var parser = HTTP1RequestParser(limits: limits)
    var outcomes: [String] = []
    var pending: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + pieceSize)
        pending += bytes[offset..<end]
        offset = end
        while !pending.isEmpty {
            let given = pending.count
            switch pending.withUnsafeBytes({ parser.parse($0) }) {
            case .needMore(let consumed):
                Fuzz.require(consumed == given, "needMore consumed \(consumed) of \(given) bytes")
                pending.removeAll()
            case .complete(let head, let request, let consumed):
                Fuzz.require(consumed > 0 && consumed <= given, "complete consumed \(consumed) of \(given) bytes")
                Fuzz.require(request.body.count <= limits.maxBodyBytes, "a body of \(request.body.count) bytes")
                Fuzz.require(request.headers.count <= limits.maxHeaderCount, "\(request.headers.count) header fields")
                outcomes.append("\(head) \(request.method) \(request.target) \(request.headers) \(request.body)")
                pending.removeFirst(consumed)
                parser.reset()
            case .failed(let error, let consumed):
                Fuzz.require([400, 413, 417, 431, 505].contains(error.status), "status \(error.status): \(error.message)")
                Fuzz.require(consumed <= given, "failed having consumed \(consumed) of \(given) bytes")
                return outcomes + ["\(error.status) \(error.message)"]
            }
        }
    }
    return outcomes
}
