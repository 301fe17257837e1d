import MockStackCore

/// A language whose DTOs an app generates at `/types/{language}` (docs/servicestack.md#generated-dtos).
public enum DTOLanguage: String, Sendable, CaseIterable {
    case swift
    case python
    case typeScript = "typescript"
    /// `/types/typescript.d`: the TypeScript file as ambient declarations (`dtos.d.ts`).
    case typeScriptDeclarations = "typescript.d"
    /// `/types/mjs`: the DTOs as an ES module of JavaScript classes.
    case mjs
    /// `/types/js`: the DTOs as a CommonJS module of ES5 classes.
    case commonJS = "js"
    case java
    case kotlin
    case dart
    case cSharp = "csharp"
    case fSharp = "fsharp"
    case vbNet = "vbnet"
    case php

    /// The language a `mockstack codegen` argument names: its path name (any case) or a short
    /// name (`ts`, `py`).
    public init?(name: String) {
        let name = name.lowercased()
        guard let language = Self(rawValue: name) ?? Self.shortNames[name] else { return nil }
        self = language
    }

    /// The names `mockstack codegen` also takes, as the file extensions people know.
    static let shortNames: [String: DTOLanguage] = [
        "ts": .typeScript, "d.ts": .typeScriptDeclarations, "py": .python, "kt": .kotlin, "cs": .cSharp, "fs": .fSharp,
        "vb": .vbNet,
    ]

    /// Every language by its path name, a short name after it in brackets: `swift, python (py), …`.
    public static var namesForHelp: String {
        allCases.map { language in
            let short = shortNames.filter { $0.value == language }.keys.sorted()
            return language.rawValue + (short.isEmpty ? "" : " (\(short.joined(separator: ", ")))")
        }.joined(separator: ", ")
    }

    /// `Swift`, `Python`, `TypeScript`, `C#`, …
    public var displayName: String {
        switch self {
        case .swift: "Swift"
        case .python: "Python"
        case .typeScript: "TypeScript"
        case .typeScriptDeclarations: "TypeScript declarations"
        case .mjs: "JavaScript module"
        case .commonJS: "CommonJS"
        case .java: "Java"
        case .kotlin: "Kotlin"
        case .dart: "Dart"
        case .cSharp: "C#"
        case .fSharp: "F#"
        case .vbNet: "VB.NET"
        case .php: "PHP"
        }
    }

    /// How a file of the language ends (`dtos.swift`, `dtos.py`).
    public var fileExtension: String {
        switch self {
        case .swift: "swift"
        case .python: "py"
        case .typeScript: "ts"
        case .typeScriptDeclarations: "d.ts"
        case .mjs: "mjs"
        case .commonJS: "js"
        case .java: "java"
        case .kotlin: "kt"
        case .dart: "dart"
        case .cSharp: "cs"
        case .fSharp: "fs"
        case .vbNet: "vb"
        case .php: "php"
        }
    }

    /// The `Content-Type` ServiceStack serves the file with: text, but for the scripts a browser
    /// may load, which are JavaScript (PHP's too, as ServiceStack has it).
    public var contentType: String {
        switch self {
        case .swift, .python, .typeScript, .typeScriptDeclarations, .java, .kotlin, .dart, .cSharp, .fSharp, .vbNet:
            MediaType.text
        case .mjs, .commonJS, .php: MediaType.javaScript
        }
    }

    /// The options the file's header lists, in its order.
    public var headerOptions: [String] { generatorType.headerOptions }

    /// Every query option the language's generator reads.
    public var options: [String] { generatorType.options }
}
