import MockStackCore

/// A whole `/types/js` file (docs/servicestack.md#generated-dtos): the `/* Options: … */` header
/// and a blank line, `"use strict";`, the `__extends` helper TypeScript's compiler writes for ES5
/// classes, `exports.__esModule = true;`, the exported names declared `void 0` a hundred to a
/// line (each line after a blank one, as ServiceStack batches them), then every class and enum in
/// ``DTOLayout`` order (the interfaces left out); a blank line ends the file.
public struct CommonJsGenerator: DTOFileGenerator {
    let document: MetadataDocument
    // 10.09, as the TypeScript file whose model (type order, names) this one takes.
    public static let serviceStackVersion = "10.09"

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "AddServiceStackTypes", "AddDescriptionAsComments", "IncludeTypes", "ExcludeTypes", "DefaultImports",
    ]
    /// Every option the generator reads.
    public static let options = headerOptions + ["BaseUrl", "WithoutOptions"]

    /// How many names one `exports.A = exports.B = void 0;` line declares (ServiceStack's batches,
    /// which keep a browser's call stack from overflowing on a long chain).
    static let exportsPerLine = 100

    /// The ES5 class helper, as TypeScript's compiler and ServiceStack write it.
    static let prologue = [
        "\"use strict\";",
        "var __extends = (this && this.__extends) || (function () {",
        "    var extendStatics = function (d, b) {",
        "        extendStatics = Object.setPrototypeOf ||",
        "            ({ __proto__: [] } instanceof Array && function (d, b) { d.__proto__ = b; }) ||",
        "            function (d, b) { for (var p in b) if (Object.prototype.hasOwnProperty.call(b, p))"
            + " d[p] = b[p]; };",
        "        return extendStatics(d, b);",
        "    };",
        "    return function (d, b) {",
        "        if (typeof b !== \"function\" && b !== null)",
        "            throw new TypeError(\"Class extends value \" + String(b) + \" is not a constructor or null\");",
        "        extendStatics(d, b);",
        "        function __() { this.constructor = d; }",
        "        d.prototype = b === null ? Object.create(b) : (__.prototype = b.prototype, new __());",
        "    };",
        "})();",
        "exports.__esModule = true;",
    ]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forScripts(query: query, config: metadata.config)
        let layout = DTOLayout.typeScript(document, query: query, options: options)
        var lines: [String] = []
        if !options.withoutOptions {
            lines += JavaScriptHeader.lines(
                Self.headerOptions, flags: ["AddServiceStackTypes", "AddDescriptionAsComments"],
                version: Self.serviceStackVersion, options: options, date: date, baseURL: baseURL)
        }
        lines += Self.prologue
        let writer = CommonJsTypeWriter(options: options, layout: layout)
        let entries = JavaScriptTypes.written(layout)
        let names = entries.map { "exports." + writer.types.name($0.type) }
        for start in stride(from: 0, to: names.count, by: Self.exportsPerLine) {
            let batch = names[start..<min(start + Self.exportsPerLine, names.count)]
            lines += [batch.joined(separator: " = ") + " = void 0;", ""]
        }
        var declaresDictionary = false
        for entry in entries {
            lines += writer.write(entry, needsDictionary: &declaresDictionary)
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}
