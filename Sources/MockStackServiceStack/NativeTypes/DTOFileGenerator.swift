import MockStackCore

/// What writes one language's `/types/{language}` file from an app's metadata
/// (docs/servicestack.md#generated-dtos). Each language has one, beside the others, over the
/// same ``MetadataTypes``.
protocol DTOFileGenerator: Sendable {
    /// `Version:`, the ServiceStack release whose generator the file reproduces.
    static var serviceStackVersion: String { get }
    /// What selects from the metadata (IncludeTypes, ExcludeTypes); it holds the metadata.
    var document: MetadataDocument { get }
    /// The options the file's header lists, in its order (what `x LANG FILE` reads back).
    static var headerOptions: [String] { get }
    /// Every query option the generator reads: the header's and those it takes but does not list.
    static var options: [String] { get }

    /// The file for a request's query options.
    /// - Parameters:
    ///   - date: the header's `Date:`;
    ///   - baseURL: where the file is served from (the header's `BaseUrl:` unless the query sets it).
    func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String
}

extension DTOFileGenerator {
    /// The app's metadata.
    var metadata: MetadataTypes { document.metadata }
}

/// An app's DTO file writers, each made for the first request of its language: what a writer
/// works out of the metadata once (the Swift one, the names declared with several arities) is
/// kept for every later file, and a language nobody asks for costs nothing.
final class DTOGenerators: Sendable {
    private let generators: [DTOLanguage: ResolvedOnFirstUse<Writer>]

    /// A writer, as the first-use cell holds it.
    private final class Writer: Sendable {
        let generator: any DTOFileGenerator
        init(_ generator: any DTOFileGenerator) { self.generator = generator }
    }

    init(metadata: MetadataTypes, swiftVersion: String) {
        var generators: [DTOLanguage: ResolvedOnFirstUse<Writer>] = [:]
        for language in DTOLanguage.allCases {
            generators[language] = ResolvedOnFirstUse {
                Writer(language.makeGenerator(metadata: metadata, swiftVersion: swiftVersion))
            }
        }
        self.generators = generators
    }

    /// The `/types/{language}` file.
    func render(
        _ language: DTOLanguage, query: [(name: String, value: String)], date: DateTimeValue, baseURL: String
    ) -> String {
        // Every case is made in `init`.
        generators[language]!.value.generator.render(query: query, date: date, baseURL: baseURL)
    }
}

extension DTOLanguage {
    /// The language's writer over an app's metadata.
    fileprivate func makeGenerator(metadata: MetadataTypes, swiftVersion: String) -> any DTOFileGenerator {
        switch self {
        case .swift: SwiftGenerator(metadata: metadata, header: SwiftHeader(swiftVersion: swiftVersion))
        case .python: PythonGenerator(metadata: metadata)
        case .typeScript: TypeScriptGenerator(metadata: metadata)
        case .typeScriptDeclarations: TypeScriptGenerator(metadata: metadata, declaresOnly: true)
        case .mjs: MjsGenerator(metadata: metadata)
        case .commonJS: CommonJsGenerator(metadata: metadata)
        case .java: JavaGenerator(metadata: metadata)
        case .kotlin: KotlinGenerator(metadata: metadata)
        case .dart: DartGenerator(metadata: metadata)
        case .cSharp: CSharpGenerator(metadata: metadata)
        case .fSharp: FSharpGenerator(metadata: metadata)
        case .vbNet: VbNetGenerator(metadata: metadata)
        case .php: PhpGenerator(metadata: metadata)
        }
    }

    /// The generator type, for its option lists.
    var generatorType: any DTOFileGenerator.Type {
        switch self {
        case .swift: SwiftGenerator.self
        case .python: PythonGenerator.self
        case .typeScript, .typeScriptDeclarations: TypeScriptGenerator.self
        case .mjs: MjsGenerator.self
        case .commonJS: CommonJsGenerator.self
        case .java: JavaGenerator.self
        case .kotlin: KotlinGenerator.self
        case .dart: DartGenerator.self
        case .cSharp: CSharpGenerator.self
        case .fSharp: FSharpGenerator.self
        case .vbNet: VbNetGenerator.self
        case .php: PhpGenerator.self
        }
    }
}
