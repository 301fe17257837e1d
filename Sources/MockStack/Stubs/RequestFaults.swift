import MockStackCore

/// Misbehaviour a request asks for itself: `X-MockStack-Delay: <ms>` answers late,
/// `X-MockStack-Fault: reset|empty` breaks the connection instead of answering (the app still
/// runs, so its state and the journal show the call).
enum RequestFaults {
    static let delayHeader = "X-MockStack-Delay"
    static let faultHeader = "X-MockStack-Fault"

    /// A 400 naming the header when one of them holds a value mockstack cannot act on.
    static func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        if let delay = request.headers[delayHeader], Int(delay).map({ !(0...600_000).contains($0) }) ?? true {
            return PlainError.response(400, "\(delayHeader): expected milliseconds from 0 to 600000, found '\(delay)'")
        }
        if let fault = request.headers[faultHeader], StubAnswer.faults[fault.lowercased()] == nil {
            return PlainError.response(400, "\(faultHeader): unknown fault '\(fault)' (faults: \(StubAnswer.faults.keys.sorted().joined(separator: ", ")))")
        }
        return nil
    }

    /// The answer with the delivery the headers ask for.
    static func applied(to response: HTTPResponse, _ request: HTTPRequest) -> HTTPResponse {
        var response = response
        if let fault = request.headers[faultHeader].flatMap({ StubAnswer.faults[$0.lowercased()] }) {
            response.delivery = .fault(fault)
        } else if let delay = request.headers[delayHeader].flatMap(Int.init) {
            response.delivery = .delayed(milliseconds: delay)
        }
        return response
    }
}
