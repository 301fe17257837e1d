import MockStackCore

/// A whole `/types/dart` file from an app's metadata (docs/servicestack.md#generated-dtos), laid
/// out as ServiceStack's Dart generator lays it out: the `/* Options: … */` header (each option
/// behind `//` unless the query gave it a value) and a blank line, `library Name;` after a blank
/// line for a `GlobalNamespace`, an import per `DefaultImports` entry (`dart:collection` added
/// when a request extends a list, `dart:typed_data` when a member or return type is bytes), then
/// every type in ``DTOLayout`` order, each after a blank line, and the file's ``DartTypeRegistry``
/// after another. The types the `servicestack` package defines are left to it.
public struct DartGenerator: DTOFileGenerator {
    let document: MetadataDocument
    public static let serviceStackVersion = "8.41"
    /// Names whose members travel as `String` (.NET structs), worked out once.
    private let structs: Set<String>
    /// The metadata's types by .NET name.
    private let declared: [String: MetadataType]

    public init(metadata: MetadataTypes) {
        document = MetadataDocument(metadata: metadata)
        structs = Self.structNames(metadata)
        var declared: [String: MetadataType] = [:]
        for type in metadata.types where declared[type.name] == nil { declared[type.name] = type }
        self.declared = declared
    }

    /// The header's options, in its order.
    public static let headerOptions = [
        "GlobalNamespace", "AddServiceStackTypes", "AddResponseStatus", "AddImplicitVersion",
        "AddDescriptionAsComments",
        "IncludeTypes", "ExcludeTypes", "DefaultImports",
    ]
    /// Every option the Dart generator reads.
    public static let options = headerOptions + ["BaseUrl", "WithoutOptions", "AddReturnMarker"]

    static let defaultImports = ["package:servicestack/servicestack.dart"]

    /// The file for a request's query options, dated `date`, fetched from `baseURL`.
    public func render(query: [(name: String, value: String)], date: DateTimeValue, baseURL: String) -> String {
        let options = NativeTypesOptions.forScripts(query: query, config: metadata.config)
        let selection = MetadataDocument.Selection(query: query, document: document)
        let layout = DTOLayout(
            metadata: metadata, selection: selection, leavingOut: DTOLayout.clientLibraryTypes,
            addsServiceStackTypes: options.flag("AddServiceStackTypes"))
        var imports = options.list("DefaultImports").isEmpty ? Self.defaultImports : options.list("DefaultImports")
        var lines: [String] = []
        if !options.withoutOptions { lines += header(options, imports: imports, date: date, baseURL: baseURL) }
        let namespace = options.text("GlobalNamespace").map(Self.libraryName) ?? ""
        if !namespace.isEmpty { lines += ["", "library \(namespace);"] }
        for library in Self.librariesNeeded(by: layout) where !imports.contains(library) { imports.append(library) }
        lines += imports.compactMap(Self.importLine)

        // The package's two-argument AutoQuery bases and tuples are named with their arity.
        let conflicts = layout.conflictingNames.union([
            "QueryDb`2", "QueryData`2", "Tuple`1", "Tuple`2", "Tuple`3", "Tuple`4",
        ])
        let types = DartTypeMap(conflicts: conflicts)
        let writer = DartTypeWriter(options: options, types: types, structs: structs, bases: declared)
        var registry = DartTypeRegistry(types: types, declared: layout.entries.map(\.type))
        for entry in layout.entries {
            lines += [""] + writer.write(entry, in: layout, registry: &registry)
        }
        if !layout.entries.isEmpty {
            let base = options.isGiven("BaseUrl") ? options.text("BaseUrl") ?? "" : baseURL
            let library = options.text("GlobalNamespace") ?? Self.host(base)
            lines += registry.context(library: Self.libraryName(library)) + [""]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(
        _ options: NativeTypesOptions, imports: [String], date: DateTimeValue, baseURL: String
    ) -> [String] {
        var lines = DTOHeaderOpening.lines(
            "/* Options:", date: date, versions: ["Version: \(Self.serviceStackVersion)"],
            commentPrefix: "//", options: options, baseURL: baseURL, oneLine: SwiftHeader.oneLine)
        lines += DTOHeaderOpening.optionLines(
            Self.headerOptions, flags: ["AddServiceStackTypes", "AddResponseStatus", "AddDescriptionAsComments"],
            imports: imports, commentPrefix: "//", options: options,
            oneLine: SwiftHeader.oneLine)
        return lines + ["*/", ""]
    }

    /// `dart:collection` for a request that extends a list (`ListBase`), `dart:typed_data` for
    /// bytes (`Uint8List`) among the members or return types.
    private static func librariesNeeded(by layout: DTOLayout) -> [String] {
        var libraries: [String] = []
        var extendsList = false
        var usesBytes = false
        for entry in layout.entries {
            if entry.type.properties.contains(where: { $0.typeName == "Byte[]" }) { usesBytes = true }
            guard case .request(let operation) = entry.role else { continue }
            if entry.type.inherits?.name == "List`1" { extendsList = true }
            if operation.returnType?.name == "Byte[]" { usesBytes = true }
        }
        if extendsList { libraries.append("dart:collection") }
        if usesBytes { libraries.append("dart:typed_data") }
        return libraries
    }

    /// `import 'uri';`; nil for an entry that is not a plain package, `dart:` or relative path.
    static func importLine(_ entry: String) -> String? {
        guard !entry.isEmpty, entry.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.:/-".contains($0)) })
        else { return nil }
        return "import '\(entry)';"
    }

    /// A library name: letters, digits, `_` and `.` (anything else as `_`), as ServiceStack makes one.
    static func libraryName(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") ? $0 : "_" })
    }

    /// The host of a URL (`test.servicestack.net`), which names the registry's library.
    static func host(_ url: String) -> String {
        let characters = Array(url)
        let scheme = characters.indices.first { characters[$0...].starts(with: "://") }
        var rest = Substring(String(characters[(scheme.map { $0 + 3 } ?? 0)...]))
        rest = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[...close]) }
        return String(rest.prefix { $0 != ":" })
    }

    /// The value types the metadata does not describe: a name whose first member anywhere is a
    /// value type neither of a `System` namespace nor an enum (ServiceStack's test for a `Nullable`
    /// of a .NET struct).
    private static func structNames(_ metadata: MetadataTypes) -> Set<String> {
        var seen: Set<String> = []
        var structs: Set<String> = []
        let all = metadata.types + metadata.operations.flatMap { [$0.request] + ($0.response.map { [$0] } ?? []) }
        for property in all.flatMap(\.properties) {
            let name = property.typeName
            guard seen.insert(name).inserted else { continue }
            if !(property.namespace?.hasPrefix("System") ?? false) && !property.isEnum { structs.insert(name) }
        }
        return structs
    }
}
