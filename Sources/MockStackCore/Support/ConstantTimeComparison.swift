/// Secrets compared so that the time taken says nothing about how much of a guess was right:
/// every byte is compared whatever differs first (only a different length ends it early, and
/// a length is no secret). For tokens and password hashes.
public enum ConstantTimeComparison {
    /// Whether `a` and `b` hold the same bytes.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
