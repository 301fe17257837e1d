import MockStackCore

/// A whole `/types/mjs` file (docs/servicestack.md#generated-dtos): the `/* Options: … */`
/// header (each option behind `//` unless the query gave it a value) and a blank line,
/// `"use strict";`, then every class and enum in ``DTOLayout`` order, as ServiceStack's
/// `MjsGenerator` writes them over its TypeScript generator's model (the interfaces, which
/// JavaScript has no use for, left out); a blank line ends the file. Nothing is imported:
/// `DefaultImports` is only listed in the header, as ServiceStack lists it.
public struct MjsGenerator: DTOFileGenerator {
    let document: MetadataDocument
    // 10.09, as the TypeScript file: the model (member optionality, collections started
    // empty, type order) is the TypeScript generator's, whose rules are 10.x's.
    public static let serviceStackVersion = "10.09"

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "AddServiceStackTypes", "AddDocAnnotations", "AddDescriptionAsComments", "IncludeTypes", "ExcludeTypes",
        "DefaultImports",
    ]
    /// Every option the generator reads. Not `AddResponseStatus`: ServiceStack's answer to it is
    /// a line that is not JavaScript (`responseType?:ResponseType`).
    public static let options = headerOptions + ["BaseUrl", "WithoutOptions", "InitializeCollections"]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forScripts(query: query, config: metadata.config)
        let layout = DTOLayout.typeScript(document, query: query, options: options)
        var lines: [String] = []
        if !options.withoutOptions {
            lines += JavaScriptHeader.lines(
                Self.headerOptions, flags: ["AddServiceStackTypes", "AddDocAnnotations", "AddDescriptionAsComments"],
                version: Self.serviceStackVersion, options: options, date: date, baseURL: baseURL)
        }
        lines.append("\"use strict\";")
        let writer = MjsTypeWriter(options: options, layout: layout)
        var declaresDictionary = false
        for entry in JavaScriptTypes.written(layout) {
            lines += writer.write(entry, needsDictionary: &declaresDictionary)
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}
