import MockStackCore

/// A language whose DTOs an app generates at `/types/{language}` (docs/servicestack.md#generated-dtos).
public enum DTOLanguage: String, Sendable, CaseIterable {
    case swift
    case python
    case typeScript = "typescript"

    /// The language a `mockstack codegen` argument names: its path name, or `ts` / `py`.
    public init?(name: String) {
        switch name.lowercased() {
        case "ts": self = .typeScript
        case "py": self = .python
        default: self.init(rawValue: name.lowercased())
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
