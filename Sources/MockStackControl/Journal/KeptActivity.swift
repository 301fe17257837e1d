import MockStackCore

/// A real-time activity as the socket journals keep it: its call arguments, acknowledgement and
/// event data each within `--journal-body-bytes` of JSON, its name within
/// ``JournalBounds/pathBytes``, and what it then weighs, so that the journals can be bounded by
/// weight as the request journal is. Made once for every journal the activity goes into.
/// README, "Bad input".
struct KeptActivity: Sendable {
    /// A JSON value as kept: whole when it weighs little, else as its JSON text (cut at the
    /// limit when longer). A value's tree weighs far more than its text when it holds many
    /// small values, so a heavy one is kept as text even when the text fits.
    enum Value: Sendable {
        case whole(JSONValue)
        /// The JSON text, `size` UTF-8 bytes in full; cut when `size` is more than `text` holds.
        case text(String, size: Int)
    }

    var kind: RealtimeActivity.Kind
    var connection: String?
    var name: String
    var nameTruncated: Bool
    var data: Value
    var answer: Value?
    var recipients: Int?
    /// About what the kept activity holds in memory.
    var bytes: Int

    /// What an entry weighs besides its name and values.
    static let fixedBytes = 256

    init(_ activity: RealtimeActivity, valueLimit: Int) {
        kind = activity.kind
        connection = activity.connection
        recipients = activity.recipients
        let cutName = JournalBounds.cut(activity.name, JournalBounds.pathBytes)
        name = cutName ?? activity.name
        nameTruncated = cutName != nil
        let (data, dataBytes) = Self.kept(activity.data, limit: valueLimit)
        self.data = data
        var bytes = Self.fixedBytes + name.utf8.count + dataBytes
        if let answer = activity.answer {
            let (kept, answerBytes) = Self.kept(answer, limit: valueLimit)
            self.answer = kept
            bytes += answerBytes
        }
        self.bytes = bytes
    }

    /// `value` as kept within `limit`, and what it weighs.
    static func kept(_ value: JSONValue, limit: Int) -> (Value, Int) {
        if let weight = weight(of: value, budget: limit) { return (.whole(value), weight) }
        // Rare (a large call or record): encoded whole once, then cut as request bodies are.
        let text = String(decoding: value.encoded(), as: UTF8.self)
        let size = text.utf8.count
        let kept = JournalBounds.cut(text, limit) ?? text
        return (.text(kept, size: size), kept.utf8.count)
    }

    /// Each value in a tree counts this much besides its strings: its case in its parent's
    /// storage, and an array's or object's own header.
    static let bytesPerValue = 32

    /// What `value` weighs as a tree, or nil as soon as that passes `budget`: a walk that stops
    /// early, so that weighing a large value costs no more than weighing one at the limit.
    static func weight(of value: JSONValue, budget: Int) -> Int? {
        var total = 0
        return add(value, to: &total, budget: budget) ? total : nil
    }

    private static func add(_ value: JSONValue, to total: inout Int, budget: Int) -> Bool {
        total += bytesPerValue
        switch value {
        case .null, .bool: break
        case .number(let number): total += number.literal.utf8.count
        case .string(let string): total += string.utf8.count
        case .array(let elements):
            for element in elements {
                guard add(element, to: &total, budget: budget) else { return false }
            }
        case .object(let object):
            for member in object.members {
                total += member.key.utf8.count
                guard add(member.value, to: &total, budget: budget) else { return false }
            }
        }
        return total <= budget
    }
}

extension KeptActivity.Value {
    /// The value as the journal lists it: itself, or its text read back when it was kept whole
    /// as text, or the cut text as a string.
    var json: JSONValue {
        switch self {
        case .whole(let value): return value
        case .text(let text, let size):
            guard text.utf8.count == size, let value = try? JSONParser().parse(text).root else { return .string(text) }
            return value
        }
    }

    /// The full JSON text's size when it was cut, else nil.
    var cutFrom: Int? {
        if case .text(let text, let size) = self, text.utf8.count < size { return size }
        return nil
    }
}
