import MockStackCore

/// A whole `/types/typescript` file from an app's metadata (docs/servicestack.md#generated-dtos),
/// laid out as ServiceStack's TypeScript generator lays it out: the `/* Options: … */` header (each
/// option behind `//` unless the query gave it a value) and a blank line, an import per
/// `DefaultImports` entry, then `IReturn<T>`, `IReturnVoid` and the marker interfaces the types
/// implement, and every type in ``DTOLayout`` order, each after a blank line; a `GlobalNamespace`
/// wraps the types in `export module Name { … }`; a blank line ends the file.
///
/// `/types/typescript.d` is the same file declaring only (``declaresOnly``): interfaces and
/// union enums, in `declare module Name { … }` under a `GlobalNamespace`, every member optional
/// unless the query says `MakePropertiesOptional=False`, as ServiceStack's service sets it.
public struct TypeScriptGenerator: DTOFileGenerator {
    let document: MetadataDocument
    // 10.09, not the fixtures' 8.41: the rules are 10.x's (members optional unless IsRequired(),
    // from December 2025), as a real host would label them.
    public static let serviceStackVersion = "10.09"
    /// Whether the file is `/types/typescript.d`'s declarations rather than classes.
    public let declaresOnly: Bool

    public init(metadata: MetadataTypes, declaresOnly: Bool = false) {
        self.declaresOnly = declaresOnly
        document = MetadataDocument(metadata: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "GlobalNamespace", "MakePropertiesOptional", "AddServiceStackTypes", "AddResponseStatus", "AddImplicitVersion",
        "AddDescriptionAsComments", "IncludeTypes", "ExcludeTypes", "DefaultImports",
    ]
    /// Every option the TypeScript generator reads.
    public static let options = headerOptions + ["BaseUrl", "WithoutOptions", "InitializeCollections"]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forScripts(
            query: query, config: metadata.config, makesPropertiesOptional: declaresOnly)
        let layout = DTOLayout.typeScript(document, query: query, options: options)
        var lines: [String] = []
        if !options.withoutOptions {
            lines += JavaScriptHeader.lines(
                Self.headerOptions,
                flags: [
                    "MakePropertiesOptional", "AddServiceStackTypes", "AddResponseStatus", "AddDescriptionAsComments",
                ],
                version: Self.serviceStackVersion, options: options, date: date, baseURL: baseURL)
        }
        lines += options.list("DefaultImports").compactMap(Self.importLine)
        let namespace = options.text("GlobalNamespace").map(ScriptText.identifier).flatMap { $0.isEmpty ? nil : $0 }

        let writer = TypeScriptTypeWriter(
            options: options, conflicts: layout.conflictingNames, declaresOnly: declaresOnly)
        // Today's generator turns type checking off for the file (its `InsertTsNoCheck`).
        var body = ["// @ts-nocheck"]
        var declaresDictionary = false
        for entry in layout.entries {
            body += [""] + writer.write(entry, in: layout, needsDictionary: &declaresDictionary)
        }
        if let namespace {
            lines +=
                ["", "\(declaresOnly ? "declare" : "export") module \(namespace)", "{"]
                + body.map { $0.isEmpty ? $0 : "    " + $0 } + ["", "}"]
        } else {
            lines += body
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// `import Name;` or `import { A, B } from "module";`; nil for an entry that is not made of names.
    static func importLine(_ entry: String) -> String? {
        func isName(_ text: Substring) -> Bool { !text.isEmpty && ScriptText.identifier(String(text)) == text }
        guard let colon = entry.firstIndex(of: ":") else { return isName(entry[...]) ? "import \(entry);" : nil }
        let names = entry[..<colon].split(separator: ",").map { $0.trimmingASCIISpace() }
        let module = entry[entry.index(after: colon)...].filter { $0 != "\"" && $0 != "'" }
        guard !names.isEmpty, names.allSatisfy({ isName($0[...]) }),
            !module.isEmpty, module.allSatisfy({ $0.isLetter || $0.isNumber || "@/._-".contains($0) })
        else { return nil }
        return "import { \(names.joined(separator: ", ")) } from \"\(module)\";"
    }

    /// A header value that stays on its line and inside the comment.
    static func headerText(_ value: String) -> String { SwiftHeader.oneLine(value) }
}

extension DTOLayout {
    /// The TypeScript family's layout (`/types/typescript`, `typescript.d`, `mjs`, `js`): the
    /// query's selection, with ServiceStack's interfaces and types unless the query says
    /// `AddServiceStackTypes=False`.
    static func typeScript(
        _ document: MetadataDocument, query: [(name: String, value: String)], options: NativeTypesOptions
    ) -> DTOLayout {
        let addsServiceStackTypes = options.flag("AddServiceStackTypes")
        return DTOLayout(
            metadata: document.metadata, selection: MetadataDocument.Selection(query: query, document: document),
            addsInterfaces: addsServiceStackTypes, addsServiceStackTypes: addsServiceStackTypes)
    }
}
