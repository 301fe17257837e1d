import MockStackCore

/// Writes DTOs as `/types/swift` does (spec §13): enums, interfaces as protocols, and classes
/// (request, response or plain) with attribute comments, `IReturn` and `typealias Return`, verb
/// markers, properties and `required public init(){}`. A class with a base class spells out its
/// coding: `CodingKeys` for its own properties, `init(from:)` and `encode(to:)` after the base's.
struct SwiftTypeWriter {
    let options: NativeTypesOptions
    /// `TreatTypesAsStrings`.
    let strings: Set<String>
    /// The interfaces the metadata declares (written as protocols); a class conforms only to
    /// these and the verb markers, so an interface the file does not define (AutoCrud's
    /// generic ones, server-side markers) is left out.
    let interfaces: Set<String>

    init(options: NativeTypesOptions, interfaces: Set<String> = []) {
        self.options = options
        self.interfaces = interfaces
        strings = Set(options.list("TreatTypesAsStrings"))
    }

    /// `Name` or `Module.Name`: what may go where the file names a type or module.
    static func isQualifiedName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || (first | 0x20) &- UInt8(ascii: "a") < 26 else { return false }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
        }
    }

    /// A type's Swift spelling under the request's options.
    func swiftName(_ reference: TypeReference) -> String { SwiftTypeMap.name(of: reference, strings: strings) }

    /// The words ServiceStack's Swift generator back-ticks in property names (`is`, `operator`).
    static let keywords: Set<String> = [
        "class", "deinit", "enum", "extension", "func", "import", "init", "let", "protocol", "static", "struct", "subscript",
        "typealias", "associatedtype", "var", "break", "case", "continue", "default", "do", "else", "fallthrough", "if",
        "in", "for", "return", "switch", "where", "while", "dynamicType", "is", "new", "super", "self", "Self", "Type",
        "didSet", "get", "infix", "inout", "left", "mutating", "none", "nonmutating", "operator", "override", "postfix",
        "precedence", "prefix", "private", "public", "right", "set", "unowned", "weak", "willSet",
    ]

    /// Attributes written as comments; others (`Tag`, `QueryDb`, …) are not. `Route` is written
    /// from the operation's routes.
    static let exportedAttributes: Set<String> = [
        "Flags", "Api", "ApiResponse", "ApiMember", "StringLength", "Ignore", "IgnoreDataMember", "Computed", "Meta",
        "Required", "References", "AutoQueryViewer", "AutoQueryViewerField", "DataContract", "DataMember",
    ]

    /// Written without parentheses when they have no arguments.
    static let bareAttributes: Set<String> = ["DataContract", "DataMember"]

    /// The verb marker interfaces, written after the others.
    static let verbMarkers: Set<String> = ["IGet", "IPost", "IPut", "IDelete", "IPatch", "IOptions"]

    // MARK: Enums and protocols

    /// `public enum Name : String, Codable` with a case per member, or `: Int` with each
    /// member's value when the enum declares values or is written as numbers.
    func writeEnum(_ type: MetadataType) -> String {
        let isInt = type.isEnumInt || !type.enumValues.isEmpty
        var lines = comments(for: type) + ["public enum \(type.name) : \(isInt ? "Int" : "String"), Codable", "{"]
        for (index, name) in type.enumNames.enumerated() {
            if isInt {
                let value = type.enumValues.indices.contains(index) ? type.enumValues[index] : String(index)
                lines.append("    case \(Self.identifier(name)) = \(value)")
            } else {
                lines.append("    case \(Self.identifier(name))")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `public protocol Name` with `var name:Type? { get set }` per property.
    func writeProtocol(_ type: MetadataType) -> String {
        var lines = ["public protocol \(type.name)", "{"]
        for property in type.properties {
            lines.append("    var \(propertyName(property)):\(swiftName(property.type))? { get set }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Classes

    /// A class: a request, a response or any other DTO, with or without a base class.
    /// - Parameters:
    ///   - operation: makes the class a request (routes, `IReturn`, `AddImplicitVersion`);
    ///   - isResponse: a response gets `responseStatus` under `AddResponseStatus` when it lacks one.
    func writeClass(_ type: MetadataType, operation: MetadataOperation? = nil, isResponse: Bool = false) -> String {
        var lines = comments(for: type, routes: operation?.routes ?? [])
        var conformances: [String] = []
        var returnType: String?
        if let operation {
            if operation.returnsVoid || type.implements("IReturnVoid") {
                conformances.append("IReturnVoid")
            } else if let returns = operation.returnType {
                conformances.append("IReturn")
                returnType = swiftName(returns.reference)
            }
        }
        let interfaces = type.implements.map { TypeReference.stripArity($0.name) }
            .filter { Self.verbMarkers.contains($0) || self.interfaces.contains($0) }
        conformances += interfaces.filter { !Self.verbMarkers.contains($0) } + interfaces.filter(Self.verbMarkers.contains)
        let base = type.inherits.map { swiftName($0.reference) }
        // `BaseClass` goes under a class that has none, which then still declares Codable.
        let extraBase = base == nil ? options.text("BaseClass").flatMap { Self.isQualifiedName($0) ? $0 : nil } : nil
        // A subclass is Codable through its base.
        conformances = (base.map { [$0] } ?? extraBase.map { [$0] } ?? []) + conformances + (base == nil ? ["Codable"] : [])
        lines.append("public class \(type.name) : \(conformances.joined(separator: ", "))")
        lines.append("{")
        var body: [[String]] = []
        if let returnType { body.append(["    public typealias Return = \(returnType)"]) }
        var groups = propertyGroups(type.properties, of: type)
        if operation != nil, let version = options.text("AddImplicitVersion"), Int(version) != nil {
            groups.insert(["    public var version:Int = \(version)"], at: 0)
        }
        if isResponse, options.flag("AddResponseStatus"), !type.properties.contains(where: { $0.name == "ResponseStatus" }) {
            groups.append(["    public var responseStatus:ResponseStatus?"])
        }
        body += Self.merged(groups)
        if base == nil {
            body.append([extraBase == "NSObject" ? "    required public override init(){ super.init() }" : "    required public init(){}"])
        } else {
            body.append(["    required public init(){ super.init() }"])
            body += coding(of: type)
        }
        // Groups are set apart by blank lines; plain members run together in one group.
        lines += body.enumerated().flatMap { index, group in (index == 0 ? [] : [""]) + group }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs of plain member lines joined into one group (attributed members stay apart).
    private static func merged(_ groups: [[String]]) -> [[String]] {
        var result: [[String]] = []
        for group in groups {
            let plain = !group.contains { $0.hasPrefix("    //") }
            if plain, let last = result.last, !last.contains(where: { $0.hasPrefix("    //") }) {
                result[result.count - 1] += group
            } else {
                result.append(group)
            }
        }
        return result
    }

    /// A subclass's own coding: its keys, decoding after the base (collections default to
    /// empty), and encoding after the base of what is set (collections only when not empty).
    private func coding(of type: MetadataType) -> [[String]] {
        let properties = type.properties
        var groups: [[String]] = []
        if !properties.isEmpty {
            groups.append(["    private enum CodingKeys : String, CodingKey {"] + properties.map { "        case \(propertyName($0))" } + ["    }"])
        }
        var decoding = ["    required public init(from decoder: Decoder) throws {", "        try super.init(from: decoder)"]
        var encoding = ["    public override func encode(to encoder: Encoder) throws {", "        try super.encode(to: encoder)"]
        if !properties.isEmpty {
            decoding.append("        let container = try decoder.container(keyedBy: CodingKeys.self)")
            encoding.append("        var container = encoder.container(keyedBy: CodingKeys.self)")
        }
        for property in properties {
            let name = propertyName(property)
            let swiftType = swiftName(property.type)
            if SwiftTypeMap.isCollection(property.type) {
                let empty = SwiftTypeMap.isDictionary(property.type) ? "[:]" : "[]"
                decoding.append("        \(name) = try container.decodeIfPresent(\(swiftType).self, forKey: .\(name)) ?? \(empty)")
                encoding.append(initialises(property, in: type)
                    ? "        if \(name).count > 0 { try container.encode(\(name), forKey: .\(name)) }"
                    : "        if \(name) != nil && \(name)!.count > 0 { try container.encode(\(name), forKey: .\(name)) }")
            } else {
                decoding.append("        \(name) = try container.decodeIfPresent(\(swiftType).self, forKey: .\(name))")
                encoding.append("        if \(name) != nil { try container.encode(\(name), forKey: .\(name)) }")
            }
        }
        groups.append(decoding + ["    }"])
        groups.append(encoding + ["    }"])
        return groups
    }

    /// Properties in groups: a run of plain members is one group, a member with attribute
    /// comments is a group of its own.
    private func propertyGroups(_ properties: [MetadataProperty], of type: MetadataType) -> [[String]] {
        var groups: [[String]] = []
        var run: [String] = []
        for property in properties {
            let attributes = attributeComments(property.json["attributes"], isRequired: property.isRequired)
            let declaration = "    " + propertyDeclaration(property, in: type)
            if attributes.isEmpty {
                run.append(declaration)
            } else {
                if !run.isEmpty { groups.append(run); run = [] }
                groups.append(attributes.map { "    " + $0 } + [declaration])
            }
        }
        if !run.isEmpty { groups.append(run) }
        return groups
    }

    /// `public var name:Type?`, `public var tags:[String] = []`, `@TimeSpan public var t:TimeInterval?`.
    func propertyDeclaration(_ property: MetadataProperty, in type: MetadataType) -> String {
        let swiftType = swiftName(property.type)
        let name = propertyName(property)
        if SwiftTypeMap.isCollection(property.type) {
            return initialises(property, in: type)
                ? "public var \(name):\(swiftType) = \(SwiftTypeMap.isDictionary(property.type) ? "[:]" : "[]")"
                : "public var \(name):\(swiftType)?"
        }
        let prefix = SwiftTypeMap.isTimeSpan(property.type) ? "@TimeSpan " : ""
        return "\(prefix)public var \(name):\(swiftType)?"
    }

    /// A collection starts empty when it is required or collections are initialised, unless
    /// it belongs to an AutoQuery request, whose unset filters must stay unset.
    func initialises(_ property: MetadataProperty, in type: MetadataType) -> Bool {
        guard SwiftTypeMap.isCollection(property.type) else { return false }
        let isAutoQuery = type.inherits.map { ["QueryDb", "QueryData"].contains(TypeReference.stripArity($0.name)) } ?? false
        return (property.isRequired || options.flag("InitializeCollections")) && !isAutoQuery
    }

    /// The JSON key clients use: a DataMember name as it is, else camelCase; `Description`
    /// keeps its capital (a `description` would clash with `CustomStringConvertible`); Swift
    /// keywords are back-ticked.
    func propertyName(_ property: MetadataProperty) -> String {
        if case .object(let dataMember)? = property.json["dataMember"], let name = dataMember["name"]?.stringValue { return Self.identifier(name) }
        if property.name == "Description" { return "Description" }
        return Self.identifier(property.name.prefix(1).lowercased() + property.name.dropFirst())
    }

    /// A name as a Swift identifier: characters other than letters, digits and `_` become `_`,
    /// and keywords are back-ticked.
    static func identifier(_ name: String) -> String {
        var text = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if text.first?.isNumber == true { text = "_" + text }
        return keywords.contains(text) ? "`\(text)`" : text
    }

    // MARK: Comments

    /// The description as a doc comment, then `// @Route(…)` per route, then the type's attributes.
    private func comments(for type: MetadataType, routes: [MetadataRoute] = []) -> [String] {
        var lines: [String] = []
        if options.flag("AddDescriptionAsComments"), let description = type.json["description"]?.stringValue, !description.isEmpty {
            lines += ["/**", "* \(description)", "*/"]
        }
        for route in routes {
            lines.append(route.verbs.isEmpty ? "// @Route(\"\(route.path)\")" : "// @Route(\"\(route.path)\", \"\(route.verbs.joined(separator: ","))\")")
        }
        return lines + attributeComments(type.json["attributes"], isRequired: false)
    }

    /// `// @Name(Arg="text", Flag=true)` per exported attribute, named arguments sorted by name
    /// (`// @DataContract` bare, other attributes without arguments with `()`); `// @Required()`
    /// for a member marked required.
    private func attributeComments(_ attributes: JSONValue?, isRequired: Bool) -> [String] {
        var lines: [String] = []
        var wroteRequired = false
        if case .array(let items)? = attributes {
            for item in items {
                guard let name = item["name"]?.stringValue, Self.isExported(name) else { continue }
                var positional: [String] = []
                var named: [(String, String)] = []
                if case .array(let args)? = item["constructorArgs"] { positional = args.map(Self.argumentValue) }
                if case .array(let args)? = item["args"] {
                    named = args.compactMap { arg in arg["name"]?.stringValue.map { ($0, Self.argumentValue(arg)) } }.sorted { $0.0 < $1.0 }
                }
                let arguments = positional + named.map { "\($0.0)=\($0.1)" }
                if arguments.isEmpty, Self.bareAttributes.contains(name) {
                    lines.append("// @\(name)")
                } else {
                    lines.append("// @\(name)(\(arguments.joined(separator: ", ")))")
                }
                wroteRequired = wroteRequired || name == "Required"
            }
        }
        if isRequired, !wroteRequired { lines.insert("// @Required()", at: 0) }
        return lines
    }

    private static func isExported(_ name: String) -> Bool {
        exportedAttributes.contains(name) || name.hasPrefix("Validate") || (name.hasPrefix("Is") && name.count > 2)
    }

    /// Strings quoted (with `"` and `\` escaped), numbers and booleans as they are.
    private static func argumentValue(_ argument: JSONValue) -> String {
        let value = argument["value"]?.stringValue ?? ""
        switch argument["type"]?.stringValue ?? "String" {
        case "Boolean", "Int16", "Int32", "Int64", "UInt16", "UInt32", "UInt64", "Double", "Single", "Decimal", "Byte":
            return value
        default:
            var escaped = ""
            for character in value {
                if character == "\"" || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return "\"" + escaped + "\""
        }
    }
}
