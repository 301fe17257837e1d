/// The `/* Options: … */` block that opens a `/types/swift` file (docs/servicestack.md#generated-dtos), which `x swift`
/// and `swiftref` read back to update it: the generation facts, a blank line, then the 13
/// options in their fixed order, each commented out with `//` unless the query gave it.
public struct SwiftHeader: Sendable {
    /// `SwiftVersion:` (`6.0` for the test host and AI Server, `5.0` for TechStacks).
    public var swiftVersion: String
    /// `Version:`, the ServiceStack version the host reports.
    public var serviceStackVersion: String

    public init(swiftVersion: String = "6.0", serviceStackVersion: String = SwiftGenerator.serviceStackVersion) {
        self.swiftVersion = swiftVersion
        self.serviceStackVersion = serviceStackVersion
    }

    static let flagOptions: Set<String> = [
        "AddModelExtensions", "AddServiceStackTypes", "MakePropertiesOptional", "ExcludeGenericBaseTypes",
        "AddResponseStatus", "AddDescriptionAsComments", "InitializeCollections",
    ]
    static let listOptions: Set<String> = ["IncludeTypes", "ExcludeTypes", "TreatTypesAsStrings", "DefaultImports"]

    /// The block, up to and including `*/` and its line break.
    /// - Parameters:
    ///   - date: the generation time, written `yyyy-MM-dd HH:mm:ss`;
    ///   - baseURL: where the file was fetched from, unless the query's `BaseUrl` says otherwise.
    public func render(_ options: NativeTypesOptions, date: DateTimeValue, baseURL: String) -> String {
        var lines = DTOHeaderOpening.lines(
            "/* Options:", date: date,
            versions: ["SwiftVersion: \(swiftVersion)", "Version: \(serviceStackVersion)"],
            commentPrefix: "//", options: options, baseURL: baseURL, oneLine: Self.oneLine)
        for name in SwiftGenerator.headerOptions {
            let value: String
            if Self.flagOptions.contains(name) {
                value = options.flag(name) ? "True" : "False"
            } else if Self.listOptions.contains(name) {
                value = options.list(name).joined(separator: ",")
            } else {
                value = options.text(name) ?? ""
            }
            // An empty value keeps the space after the colon, as the real header does.
            lines.append((options.isGiven(name) ? "" : "//") + name + ": " + Self.oneLine(value))
        }
        lines.append("*/")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value that stays on its line and inside the comment: line breaks become spaces, and
    /// `*/` and `/*` (Swift comments nest) are broken up, whatever a query sent.
    static func oneLine(_ value: String) -> String { oneLine(value, opening: ("/", "*"), closing: ("*", "/")) }

    /// A value kept on its line (line breaks become spaces) with a space put inside every pair of
    /// characters that opens or closes the language's block comment (`/*` and `*/`, `(*` and `*)`).
    static func oneLine(
        _ value: String, opening: (Character, Character), closing: (Character, Character)
    ) -> String {
        var text = ""
        var previous: Character?
        for original in value {
            let character: Character = original.isNewline ? " " : original
            if (previous, character) == opening || (previous, character) == closing { text.append(" ") }
            text.append(character)
            previous = character
        }
        return text
    }

    /// `2025-11-21 22:15:03`.
    static func dateText(_ date: DateTimeValue) -> String {
        let iso = date.isoText
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8))
    }
}
