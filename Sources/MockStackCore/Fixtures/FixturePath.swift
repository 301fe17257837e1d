/// The one rule for a file name a fixture or a stub gives: a relative path that stays where it
/// is read from — no absolute path, no `..` or other hidden segment, no empty segment, no
/// backslash, no NUL.
public enum FixturePath {
    /// Why `name` is refused, or nil when it is acceptable. Read on the name's bytes: every
    /// file an app loads passes here up to three times, and comparing Characters made this a
    /// visible part of a start-up with many files (the TechStacks logos).
    public static func problem(in name: String) -> String? {
        var acceptable = !name.utf8.isEmpty
        var segmentStart = true
        for byte in name.utf8 where acceptable {
            switch byte {
            case UInt8(ascii: "/"): acceptable = !segmentStart
            case UInt8(ascii: "."): acceptable = !segmentStart
            case UInt8(ascii: "\\"), 0: acceptable = false
            default: break
            }
            segmentStart = byte == UInt8(ascii: "/")
        }
        guard acceptable, !segmentStart else {
            return "must be a relative path inside the folder (no leading '/', no '..', hidden or empty segments)"
        }
        return nil
    }
}
