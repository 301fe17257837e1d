/// How far apart two names are, for "did you mean" answers: a route variable one typo from a
/// property, a command one typo from a command.
public enum EditDistance {
    /// The Levenshtein distance between `a` and `b` (by UTF-8 bytes), giving up (returning
    /// `limit + 1`) once every path is past `limit`.
    public static func between(_ a: String, _ b: String, atMost limit: Int) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
