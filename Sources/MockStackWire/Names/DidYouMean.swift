/// The help a mistyped name gets: the names it is one or two typos from, else every name there
/// is. The CLI's commands and `codegen`'s language, an unknown app folder, and a test asking for an
/// app the server does not serve share it.
public enum DidYouMean {
    /// `did you mean 'serve'?` when `word` is at most two edits (ignoring case) from some of
    /// `names`, else `the {plural} are a, b, c`.
    public static func hint(for word: String, among names: [String], plural: String) -> String {
        let near = names.filter { EditDistance.between(word.lowercased(), $0.lowercased(), atMost: 2) <= 2 }
        return near.isEmpty
            ? "the \(plural) are \(names.joined(separator: ", "))"
            : "did you mean '\(near.joined(separator: "' or '"))'?"
    }
}
