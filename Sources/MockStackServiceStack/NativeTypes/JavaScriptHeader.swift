import MockStackCore

/// The `/* Options: … */` header of the TypeScript and JavaScript files, then the blank line
/// after it: the opening lines, then `names` in order, each behind `//` unless the query gave it
/// a value, the yes/no ones (`flags`) as `True`/`False`.
enum JavaScriptHeader {
    static func lines(
        _ names: [String], flags: Set<String>, version: String, options: NativeTypesOptions, date: DateTimeValue,
        baseURL: String
    ) -> [String] {
        DTOHeaderOpening.lines(
            "/* Options:", date: date, versions: ["Version: \(version)"], commentPrefix: "//", options: options,
            baseURL: baseURL, oneLine: TypeScriptGenerator.headerText)
            + DTOHeaderOpening.optionLines(
                names, flags: flags, commentPrefix: "//", options: options, oneLine: TypeScriptGenerator.headerText)
            + ["*/", ""]
    }
}
