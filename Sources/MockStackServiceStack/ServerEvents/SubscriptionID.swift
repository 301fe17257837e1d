/// Subscription ids as ServiceStack makes them: 15 random bytes in base64, drawn again until
/// neither `+` nor `/` is in it, i.e. 20 letters and digits.
enum SubscriptionID {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A new id. Drawing each character from the 62 letters and digits gives the same strings
    /// as redrawing base64 until it has none of the other two.
    static func make<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        for _ in 0..<20 { bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
