/// How the script generators (Python, TypeScript) spell a named .NET type.
enum ScriptTypeName {
    /// The language's alias for the name, else the name without its namespace, and without its
    /// arity unless the file declares the name with several (then joined by `aritySeparator`).
    static func spelling(
        _ name: String, arity: Int, aliases: [String: String], conflicts: Set<String>,
        aritySeparator: String
    ) -> String {
        // A generic parameter is named `'T` in metadata.
        let name = name.withoutParameterMark
        if arity == 0, let alias = aliases[name] { return alias }
        // A conflicting name keeps its arity (none for the non-generic one).
        let keepsArity = arity > 0 && !conflicts.isEmpty && conflicts.contains("\(name)`\(arity)")
        let bare = keepsArity ? "\(name)\(aritySeparator)\(arity)" : name
        guard bare.containsMark(".") else { return bare }
        return String(bare.lastRightPart("."))
    }
}
