#if canImport(Glibc)
import Glibc
#endif

extension RawConnection {
    /// The next `count` responses, read as they come: pipelined answers may arrive in one read,
    /// which ``readResponse(headOnly:)`` would take for one.
    public func readResponses(_ count: Int) throws -> [RawResponse] {
        var data: [UInt8] = []
        var responses: [RawResponse] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while responses.count < count {
            if let response = RawResponse.parse(data) {
                responses.append(response)
                data.removeFirst(response.length)
                continue
            }
            let read = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard read > 0 else {
                throw RawHTTPError(read == 0 ? "connection closed after \(responses.count) responses" : "read failed: errno \(errno)")
            }
            data += buffer[0..<read]
        }
        return responses
    }
}
