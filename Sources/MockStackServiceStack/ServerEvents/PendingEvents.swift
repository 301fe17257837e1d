/// The events a subscription has been sent and not yet written to its stream, oldest first:
/// each the payload every recipient shares (an array's storage, not a copy), so a message to a
/// thousand subscribers is held once however far behind they fall. Counts the bytes their
/// frames will take on the wire, which is what a subscription's limit bounds.
struct PendingEvents {
    private var payloads: [[UInt8]] = []
    /// Where the oldest payload still pending sits in `payloads`.
    private var head = 0
    /// The frames' size on the wire, ids aside.
    private(set) var bytes = 0

    var isEmpty: Bool { head == payloads.count }

    var count: Int { payloads.count - head }

    mutating func append(_ payload: [UInt8]) {
        payloads.append(payload)
        bytes += ServerEventFrame.size(ofPayload: payload.count)
    }

    /// The oldest payload, taken off; nil when none is pending.
    mutating func removeFirst() -> [UInt8]? {
        guard head < payloads.count else { return nil }
        let payload = payloads[head]
        payloads[head] = []
        head += 1
        bytes -= ServerEventFrame.size(ofPayload: payload.count)
        if head == payloads.count {
            payloads.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= payloads.count {
            // Those taken are dropped once they are half the array, so it stays within twice
            // what is pending.
            payloads.removeFirst(head)
            head = 0
        }
        return payload
    }

    mutating func removeAll() {
        payloads = []
        head = 0
        bytes = 0
    }
}
