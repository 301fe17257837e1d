/// At most `capacity` elements, oldest first, in one array used as a ring: the oldest leaves in
/// O(1), destroyed where it lies, and no element is moved or copied when another comes or goes.
///
/// The journals keep their entries in one. An array with its oldest entries cut off now and then
/// moved every kept entry each time (a journal entry is some two hundred bytes) and held the
/// cut ones until it did; swift-collections' `Deque` copied each entry on its way in. Here an
/// entry is moved into its slot once, and read in place.
struct RingBuffer<Element>: RandomAccessCollection {
    /// The most elements held at once.
    let capacity: Int
    /// Grown one slot at a time up to `capacity`: a journal of a million entries that holds a
    /// dozen costs a dozen slots.
    private var slots: [Element?] = []
    /// The slot of the oldest element.
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(0, capacity)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var isFull: Bool { count == capacity }

    /// The element `position` places after the oldest.
    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index out of range")
        return slots[slot(position)]!
    }

    /// Adds `element` as the newest; the buffer must not be full.
    mutating func append(_ element: consuming Element) {
        precondition(count < capacity, "append to a full RingBuffer")
        let index = slot(count)
        // Before the ring first wraps, the next slot is past the end of those made so far.
        if index == slots.count {
            slots.append(element)
        } else {
            slots[index] = element
        }
        count += 1
    }

    /// Takes the oldest element out; the buffer must not be empty.
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(count > 0, "removeFirst from an empty RingBuffer")
        let element = slots[head].take()!
        head = head + 1 == capacity ? 0 : head + 1
        count -= 1
        return element
    }

    /// Keeps only the elements `shouldRemove` refuses, in order.
    mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        var kept = RingBuffer(capacity: capacity)
        for element in self where !shouldRemove(element) { kept.append(element) }
        self = kept
    }

    /// Empties the buffer, letting its slots go.
    mutating func removeAll() {
        self = RingBuffer(capacity: capacity)
    }

    private func slot(_ position: Int) -> Int {
        let index = head + position
        return index >= capacity ? index - capacity : index
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
