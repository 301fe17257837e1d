import MockStackCore
import Synchronization

/// Misbehaviour a request asks for itself: `X-MockStack-Delay: <ms>` (or `<min>-<max>` for a
/// seeded random wait) answers late, `X-MockStack-Throttle: <bytes/s>` answers slowly, and
/// `X-MockStack-Fault: <name>` breaks the connection instead of answering. The app still runs,
/// so its state and the journal show the call.
package final class RequestFaults: Sendable {
    static let delayHeader = "X-MockStack-Delay"
    static let throttleHeader = "X-MockStack-Throttle"
    static let faultHeader = "X-MockStack-Fault"

    private let seed: UInt64
    private let generator: Mutex<SeededRandom>

    /// - Parameter seed: where random delays start; ``reseed()`` starts them over.
    package init(seed: UInt64) {
        self.seed = seed
        generator = Mutex(SeededRandom(seed: seed))
    }

    /// Random delays start over from the seed (part of a reset).
    func reseed() { generator.withLock { $0 = SeededRandom(seed: seed) } }

    /// What the headers ask for, or a message naming the header whose value cannot be acted on.
    static func misbehaviour(of request: HTTPRequest) -> Result<Misbehaviour, HeaderProblem> {
        var wanted = Misbehaviour()
        // One pass over the fields (the names are compared by length first): three lookups
        // walked every field three times, on every request.
        var delayText: String?
        var throttleText: String?
        var faultText: String?
        // By index, the names read in place: a `for field in` loop copies each field.
        let fields = request.headers.fields
        for index in fields.indices {
            // The three names are 17 or 20 bytes long: most fields are passed over on their length.
            let length = fields[index].name.utf8.count
            guard length == 17 || length == 20 else { continue }
            let field = fields[index]
            if delayText == nil, field.name.equalsIgnoringASCIICase(delayHeader) { delayText = field.value }
            if throttleText == nil, field.name.equalsIgnoringASCIICase(throttleHeader) { throttleText = field.value }
            if faultText == nil, field.name.equalsIgnoringASCIICase(faultHeader) { faultText = field.value }
        }
        if let text = delayText {
            guard let delay = Misbehaviour.Delay(text) else {
                return .failure(
                    HeaderProblem(
                        """
                        \(delayHeader): expected milliseconds from 0 to 600000, or a range like 100-500, found \
                        '\(text)'
                        """
                    ))
            }
            wanted.delay = delay
        }
        if let text = throttleText {
            guard let rate = Int(text.trimmingASCIISpace()), Misbehaviour.throttleRange.contains(rate) else {
                return .failure(
                    HeaderProblem("\(throttleHeader): expected bytes per second from 1 to 1000000000, found '\(text)'"))
            }
            wanted.throttle = rate
        }
        if let name = faultText {
            guard let fault = Fault(rawValue: name.trimmingASCIISpace().lowercased()) else {
                return .failure(
                    HeaderProblem("\(faultHeader): unknown fault '\(name)' (faults: \(Misbehaviour.faultNames))"))
            }
            wanted.fault = fault
        }
        return .success(wanted)
    }

    struct HeaderProblem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The answer with what `wanted` asks for laid over its own delivery (a stub's fault
    /// stays unless the request names another); the answer itself, not a copy, when a request
    /// asks for nothing.
    func apply(_ wanted: Misbehaviour, to response: consuming HTTPResponse) -> HTTPResponse {
        guard !wanted.isNone else { return response }
        response.delivery = generator.withLock { wanted.delivery(over: response.delivery, using: &$0) }
        return response
    }
}
