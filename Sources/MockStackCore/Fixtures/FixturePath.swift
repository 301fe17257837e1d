/// The one rule for a file name a fixture or a stub gives: a relative path that stays where it
/// is read from — no absolute path, no `..` or other hidden segment, no empty segment, no
/// backslash, no NUL.
public enum FixturePath {
    /// Why `name` is refused, or nil when it is acceptable.
    public static func problem(in name: String) -> String? {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"),
              segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\0") })
        else {
            return "must be a relative path inside the folder (no leading '/', no '..', hidden or empty segments)"
        }
        return nil
    }
}
