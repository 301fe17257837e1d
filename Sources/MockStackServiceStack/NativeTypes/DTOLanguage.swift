import MockStackCore

/// A language whose DTOs an app generates at `/types/{language}` (docs/servicestack.md#generated-dtos).
public enum DTOLanguage: String, Sendable, CaseIterable {
    case swift
    case python
    case typeScript = "typescript"

    /// The language a `/types/…` path asks for (any case): `swift` (or `swift4`), `python`, `typescript`.
    /// No `/types/dtos`: ServiceStack's NativeTypesService routes no such path, nor do the test and
    /// TechStacks hosts' AppHosts, so the real hosts answer it 404, as this does.
    public init?(path: String) {
        // Asked of every request's path: the prefix compared in place, not lower-cased, and
        // against bytes held once rather than a literal's, reached through a second call.
        guard path.utf8.count > 7, UTF8Bytes.withSpan(path, Self.startsWithTypesFolder) else { return nil }
        let name = path.dropFirst(7).lowercased()
        if name == "swift4" { self = .swift } else if let language = DTOLanguage(rawValue: name) { self = language } else { return nil }
    }

    private static let typesFolder = Array("/types/".utf8)

    /// Whether `path` starts with `/types/`, in any ASCII case.
    private static func startsWithTypesFolder(_ path: Span<UInt8>) -> Bool {
        for index in typesFolder.indices where path[index].asciiLowercased != typesFolder[index] { return false }
        return true
    }

    /// The language a `mockstack codegen` argument names: its path name, or `ts` / `py`.
    public init?(name: String) {
        switch name.lowercased() {
        case "ts": self = .typeScript
        case "py": self = .python
        default: self.init(rawValue: name.lowercased())
        }
    }

    /// The journal's operation name for the file (`TypesSwift`, `TypesPython`, `TypesTypeScript`).
    public var operation: String {
        switch self {
        case .swift: "TypesSwift"
        case .python: "TypesPython"
        case .typeScript: "TypesTypeScript"
        }
    }

    /// `Swift`, `Python`, `TypeScript`.
    public var displayName: String {
        switch self {
        case .swift: "Swift"
        case .python: "Python"
        case .typeScript: "TypeScript"
        }
    }

    /// Every query option the language's generator reads.
    public var options: [String] {
        switch self {
        case .swift: NativeTypesOptions.swiftOptions
        case .python: PythonGenerator.options
        case .typeScript: TypeScriptGenerator.options
        }
    }
}
