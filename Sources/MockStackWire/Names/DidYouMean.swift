/// The help a mistyped name gets: the names it is one or two typos from, else every name there
/// is. The CLI's commands, options and `codegen`'s language, an unknown app folder, and a test
/// asking for an app the server does not serve share it.
public enum DidYouMean {
    /// `did you mean 'serve'?` when `word` is at most two edits (ignoring case) from some of
    /// `names`, and fewer than it has letters, else `the {plural} are a, b, c`.
    public static func hint(for word: String, among names: [String], plural: String) -> String {
        let near = near(word, among: names)
        return near.isEmpty ? "the \(plural) are \(names.joined(separator: ", "))" : question(near)
    }

    /// Those of `names` fewest edits (ignoring case, two at most) from `word`, in their order:
    /// `--Port` is `--port`, not also `--host`. Fewer edits than `word` has characters: every
    /// two-letter name is two edits from `go`, and none of them is what was meant.
    public static func near(_ word: String, among names: [String]) -> [String] {
        let lowered = word.lowercased()
        let distances = names.map { EditDistance.between(lowered, $0.lowercased(), atMost: 2) }
        guard let fewest = distances.min(), fewest <= 2, fewest < lowered.count else { return [] }
        return zip(names, distances).filter { $0.1 == fewest }.map(\.0)
    }

    /// `did you mean 'a' or 'b'?`
    public static func question(_ near: [String]) -> String {
        "did you mean '\(near.joined(separator: "' or '"))'?"
    }
}
