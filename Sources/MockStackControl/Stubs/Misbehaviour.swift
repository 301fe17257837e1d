import MockStackCore
import MockStackWire

/// How an answer is spoiled on purpose — late, slow, or broken — whether a stub asks for it or
/// the request itself (`X-MockStack-Delay`, `-Throttle`, `-Fault`).
struct Misbehaviour: Sendable, Equatable {
    var delay: Delay?
    /// Bytes a second the answer is sent at.
    var throttle: Int?
    var fault: Fault?

    static let delayRange = StubResponse.delayRange
    static let throttleRange = StubResponse.throttleRange

    /// A wait before answering: fixed, or drawn evenly from a range by a seeded generator, so
    /// the same seed and the same order of requests give the same waits.
    enum Delay: Sendable, Equatable {
        case fixed(Int)
        case random(ClosedRange<Int>)

        /// `250`, or `100-500` for a random wait between the two.
        init?(_ text: String) {
            let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map {
                Int($0.trimmingASCIISpace())
            }
            switch bounds.count {
            case 1:
                guard let value = bounds[0], Misbehaviour.delayRange.contains(value) else { return nil }
                self = .fixed(value)
            case 2:
                guard let low = bounds[0], let high = bounds[1], low <= high,
                    Misbehaviour.delayRange.contains(low), Misbehaviour.delayRange.contains(high)
                else { return nil }
                self = .random(low...high)
            default:
                return nil
            }
        }

        func milliseconds(using generator: inout SeededRandom) -> Int {
            switch self {
            case .fixed(let value): value
            case .random(let range): Int.random(in: range, using: &generator)
            }
        }
    }

    var isNone: Bool { delay == nil && throttle == nil && fault == nil }

    /// The transport's instructions: the fault, or a throttled or plain send, after the delay.
    func delivery(using generator: inout SeededRandom) -> Delivery {
        delivery(over: .immediate, using: &generator)
    }

    /// `base` (a stub's own delivery) with what this asks for laid over it field by field: a
    /// header's delay replaces the stub's delay but keeps its fault, and so on.
    func delivery(over base: Delivery, using generator: inout SeededRandom) -> Delivery {
        var baseDelay = 0
        var send = base
        if case .delayed(let milliseconds, let then) = base {
            baseDelay = milliseconds
            send = then
        }
        if let fault {
            send = .fault(fault)
        } else if let throttle {
            // A throttle replaces a plain or throttled send; a stub's fault or chunking stays.
            switch send {
            case .immediate, .throttled: send = .throttled(bytesPerSecond: throttle)
            default: break
            }
        }
        let milliseconds = delay?.milliseconds(using: &generator) ?? baseDelay
        return milliseconds > 0 ? .delayed(milliseconds: milliseconds, then: send) : send
    }

    /// Every fault's name, for messages.
    static var faultNames: String { Fault.allCases.map(\.rawValue).joined(separator: ", ") }
}
