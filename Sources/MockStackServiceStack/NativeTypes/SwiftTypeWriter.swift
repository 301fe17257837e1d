import MockStackCore

/// Writes DTOs as `/types/swift` does (docs/servicestack.md#generated-dtos): enums, interfaces as
/// protocols, and classes (request, response or plain) with attribute comments, `IReturn` and
/// `typealias Return`, verb markers, properties and `required public init(){}`. A class with a base
/// class spells out its coding: `CodingKeys` for its own properties, `init(from:)` and
/// `encode(to:)` after the base's.
struct SwiftTypeWriter {
    let options: NativeTypesOptions
    /// The interfaces the metadata declares (written as protocols); a class conforms only to
    /// these and the verb markers, so an interface the file does not define (AutoCrud's
    /// generic ones, server-side markers) is left out, and a property of one of these types
    /// is left out as Swift cannot decode it.
    let interfaces: Set<String>
    let types: SwiftTypeMap
    let annotations: SwiftAnnotations

    /// - Parameter conflicts: names the metadata declares with several arities (see `SwiftTypeMap`).
    init(options: NativeTypesOptions, interfaces: Set<String> = [], conflicts: Set<String> = []) {
        self.options = options
        self.interfaces = interfaces
        types = SwiftTypeMap(strings: Set(options.list("TreatTypesAsStrings")), conflicts: conflicts)
        annotations = SwiftAnnotations(describes: options.flag("AddDescriptionAsComments"))
    }

    /// `Name` or `Module.Name`: what may go where the file names a type or module.
    static func isQualifiedName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || (first | 0x20) &- UInt8(ascii: "a") < 26 else {
            return false
        }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || (byte | 0x20) &- UInt8(ascii: "a") < 26
                || byte &- UInt8(ascii: "0") < 10
        }
    }

    /// A type's Swift spelling under the request's options.
    func swiftName(_ reference: TypeReference) -> String { types.name(of: reference) }

    /// A base class's spelling: as a property's, but a list base stays `List<Element>` (a class
    /// of the ServiceStack package), not the `[Element]` array a class cannot inherit.
    func baseName(_ reference: TypeReference) -> String {
        let name = swiftName(reference)
        guard name.hasPrefix("["), name.hasSuffix("]"), !name.containsMark(":") else { return name }
        return "List<" + name.dropFirst().dropLast() + ">"
    }

    /// The words ServiceStack's Swift generator back-ticks in property names (`is`, `operator`).
    static let keywords: Set<String> = [
        "class", "deinit", "enum", "extension", "func", "import", "init", "let", "protocol", "static", "struct",
        "subscript",
        "typealias", "associatedtype", "var", "break", "case", "continue", "default", "do", "else", "fallthrough", "if",
        "in", "for", "return", "switch", "where", "while", "dynamicType", "is", "new", "super", "self", "Self", "Type",
        "didSet", "get", "infix", "inout", "left", "mutating", "none", "nonmutating", "operator", "override", "postfix",
        "precedence", "prefix", "private", "public", "right", "set", "unowned", "weak", "willSet",
    ]

    /// The verb marker interfaces, written after the others.
    static let verbMarkers: Set<String> = ["IGet", "IPost", "IPut", "IDelete", "IPatch", "IOptions"]

    /// The ServiceStack Swift package's own protocols: a class conforms to these as to the
    /// interfaces the file declares.
    static let packageProtocols: Set<String> = ["IHasSessionId", "IHasBearerToken", "IHasVersion", "IMeta"]

    /// Properties left out by name: ServiceStack's session types hold this one, which Swift cannot decode.
    static let ignoredPropertyNames: Set<String> = ["ProviderOAuthAccess"]

    /// A type's declared name: a generic one with its parameters, each constrained to
    /// `Codable` (`Page<T : Codable>`), unless it is a protocol.
    func declaredName(_ type: MetadataType, constrained: Bool = true) -> String {
        let name = TypeReference.stripArity(type.name)
        guard !type.genericArgs.isEmpty else { return name }
        let parameters = type.genericArgs.map { String($0.drop { $0 == "'" }) }
        return types.genericName(name, arity: parameters.count)
            + "<" + parameters.map { constrained ? "\($0) : Codable" : $0 }.joined(separator: ", ") + ">"
    }

    // MARK: Enums and protocols

    /// `public enum Name : String, Codable` with a case per member, or `: Int` when the
    /// metadata gives the members' values (explicit values, `[Flags]`), each `case X = value`.
    func writeEnum(_ type: MetadataType) -> String {
        let isInt = type.enumValues.count > 1
        var lines = annotations.typeComments(type, routes: [])
        lines += ["public enum \(TypeReference.stripArity(type.name)) : \(isInt ? "Int" : "String"), Codable", "{"]
        for (index, name) in type.enumNames.enumerated() {
            let value = type.enumValues.indices.contains(index) ? " = \(type.enumValues[index])" : ""
            lines.append("    case \(Self.identifier(name))\(value)")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `public protocol Name : Base` with `associatedtype T` per generic parameter and
    /// `var name:Type? { get set }` per property.
    func writeProtocol(_ type: MetadataType) -> String {
        var lines = annotations.typeComments(type, routes: [])
        let bases = type.implements.map { swiftName($0.reference) }
        lines.append(
            "public protocol \(TypeReference.stripArity(type.name))"
                + (bases.isEmpty ? "" : " : " + bases.joined(separator: ", ")))
        lines.append("{")
        let parameters = type.genericArgs.map { String($0.drop { $0 == "'" }) }
        if !parameters.isEmpty { lines += parameters.map { "    associatedtype \($0)" } + [""] }
        lines += propertyLines(type.properties, of: type)
        if !type.properties.isEmpty { lines.append("") }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Classes

    /// A class: a request, a response or any other DTO, with or without a base class.
    /// - Parameters:
    ///   - operation: makes the class a request (routes, `IReturn`, `AddImplicitVersion`);
    ///   - isResponse: a response gets `responseStatus` under `AddResponseStatus` when it lacks one.
    func writeClass(_ type: MetadataType, operation: MetadataOperation? = nil, isResponse: Bool = false) -> String {
        var lines = annotations.typeComments(type, routes: operation?.routes ?? [])
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
        let interfaces = type.implements.filter { $0.genericArgs.isEmpty }.map { TypeReference.stripArity($0.name) }
            .filter {
                Self.verbMarkers.contains($0) || Self.packageProtocols.contains($0) || self.interfaces.contains($0)
            }
        conformances +=
            interfaces.filter { !Self.verbMarkers.contains($0) } + interfaces.filter(Self.verbMarkers.contains)
        let base = type.inherits.map { baseName($0.reference) }
        // `BaseClass` goes under a class that has none, which then still declares Codable.
        let extraBase = base == nil ? options.text("BaseClass").flatMap { Self.isQualifiedName($0) ? $0 : nil } : nil
        // A subclass is Codable through its base.
        conformances =
            (base.map { [$0] } ?? extraBase.map { [$0] } ?? []) + conformances + (base == nil ? ["Codable"] : [])
        lines.append("public class \(declaredName(type)) : \(conformances.joined(separator: ", "))")
        lines.append("{")
        if let returnType { lines += ["    public typealias Return = \(returnType)", ""] }
        if operation != nil, let version = options.text("AddImplicitVersion"), Int(version) != nil {
            lines.append("    public var version:Int = \(version)")
        }
        let addsStatus =
            isResponse && options.flag("AddResponseStatus") && !type.properties.contains { $0.name == "ResponseStatus" }
        lines += propertyLines(type.properties, of: type, addingResponseStatus: addsStatus)
        if !type.properties.isEmpty { lines.append("") }
        if base != nil {
            lines.append("    required public init(){ super.init() }")
            lines += coding(of: type, inherited: true)
        } else {
            // ServiceStack leaves out `override` under NSObject, which Swift rejects; written so it compiles.
            lines.append(
                extraBase == "NSObject"
                    ? "    required public override init(){ super.init() }" : "    required public init(){}")
            if Self.synthesizesCoding(type) { lines += coding(of: type, inherited: false) }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The members, indented: a member with marks (attributes, data member) is followed by a
    /// blank line, a plain one is not; a property of an interface type becomes a comment.
    private func propertyLines(
        _ properties: [MetadataProperty], of type: MetadataType, addingResponseStatus: Bool = false
    ) -> [String] {
        var lines: [String] = []
        var marked = false
        for property in properties {
            if marked { lines.append("") }
            if interfaces.contains(property.type.name) || Self.ignoredPropertyNames.contains(property.name) {
                let name = Self.identifier(Self.lowercasingFirst(property.name))
                lines.append(
                    "    //\(name):\(swiftName(property.type)) ignored. Swift doesn't support interface properties")
                continue
            }
            let (description, marks) = annotations.memberComments(property)
            marked = !marks.isEmpty
            lines += (description + marks).map { "    " + $0 }
            lines.append("    " + (type.isInterface ? requirement(property) : propertyDeclaration(property, in: type)))
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines.append("    public var responseStatus:ResponseStatus?")
        }
        return lines
    }

    /// Whether a class without a base spells out its coding all the same: one marked
    /// `[Synthesize]` (test.servicestack.net's `AllTypesBase`).
    static func synthesizesCoding(_ type: MetadataType) -> Bool {
        guard case .array(let attributes)? = type.json["attributes"] else { return false }
        return attributes.contains { $0["name"]?.stringValue == "Synthesize" }
    }

    /// A class's own coding: its keys, decoding (after the base's, for a subclass; collections
    /// default to empty), and encoding of what is set (collections only when not empty).
    private func coding(of type: MetadataType, inherited: Bool) -> [String] {
        let properties = type.properties
        var lines: [String] = [""]
        if !properties.isEmpty {
            lines +=
                ["    private enum CodingKeys : String, CodingKey {"]
                + properties.map { "        case \(propertyName($0))" } + ["    }", ""]
        }
        var decoding = ["    required public init(from decoder: Decoder) throws {"]
        var encoding = [
            inherited
                ? "    public override func encode(to encoder: Encoder) throws {"
                : "    public func encode(to encoder: Encoder) throws {"
        ]
        if inherited {
            decoding.append("        try super.init(from: decoder)")
            encoding.append("        try super.encode(to: encoder)")
        }
        if !properties.isEmpty {
            decoding.append("        let container = try decoder.container(keyedBy: CodingKeys.self)")
            encoding.append("        var container = encoder.container(keyedBy: CodingKeys.self)")
        }
        for property in properties {
            let name = propertyName(property)
            let swiftType = swiftName(property.type)
            if SwiftTypeMap.isCollection(property.type) {
                let empty = SwiftTypeMap.isDictionary(property.type) ? "[:]" : "[]"
                decoding.append(
                    "        \(name) = try container.decodeIfPresent(\(swiftType).self, forKey: .\(name)) ?? \(empty)")
                encoding.append(
                    initialises(property, in: type)
                        ? "        if \(name).count > 0 { try container.encode(\(name), forKey: .\(name)) }"
                        : """
                                if \(name) != nil && \(name)!.count > 0 { try container.encode(\(name), forKey: \
                        .\(name)) }
                        """
                )
            } else {
                // The package reads a TimeSpan (an ISO 8601 duration) with its own converter.
                let method = SwiftTypeMap.isTimeSpan(property.type) ? "convertIfPresent" : "decodeIfPresent"
                decoding.append("        \(name) = try container.\(method)(\(swiftType).self, forKey: .\(name))")
                encoding.append("        if \(name) != nil { try container.encode(\(name), forKey: .\(name)) }")
            }
        }
        return lines + decoding + ["    }", ""] + encoding + ["    }"]
    }

    /// `public var name:Type?`, `public var tags:[String] = []`, `@TimeSpan public var t:TimeInterval?`.
    func propertyDeclaration(_ property: MetadataProperty, in type: MetadataType) -> String {
        let swiftType = swiftName(property.type)
        let name = propertyName(property)
        if initialises(property, in: type) {
            return "public var \(name):\(swiftType) = \(SwiftTypeMap.isDictionary(property.type) ? "[:]" : "[]")"
        }
        let prefix = SwiftTypeMap.isTimeSpan(property.type) ? "@TimeSpan " : ""
        return "\(prefix)public var \(name):\(swiftType)\(isOptional(property) ? "?" : "")"
    }

    /// A protocol's `var name:Type? { get set }`.
    private func requirement(_ property: MetadataProperty) -> String {
        "var \(propertyName(property)):\(swiftName(property.type))\(isOptional(property) ? "?" : "") { get set }"
    }

    /// Whether a property is written `T?`: every one while `MakePropertiesOptional` holds (the
    /// Swift default); otherwise `Nullable<T>` values, untyped dictionaries and required
    /// members, which ServiceStack always leaves optional.
    func isOptional(_ property: MetadataProperty) -> Bool {
        options.flag("MakePropertiesOptional") || SwiftTypeMap.isAlwaysOptional(property.type)
            || isMarkedRequired(property)
    }

    private func isMarkedRequired(_ property: MetadataProperty) -> Bool {
        guard case .array(let attributes)? = property.json["attributes"] else { return false }
        return attributes.contains { $0["name"]?.stringValue == "Required" }
    }

    /// A collection starts empty when it is required (a non-nullable collection of a host that
    /// annotates nullability), or when collections are initialised, except a list or dictionary
    /// of an AutoQuery request, whose unset filters must stay unset (its arrays start empty).
    func initialises(_ property: MetadataProperty, in type: MetadataType) -> Bool {
        guard SwiftTypeMap.isCollection(property.type), !type.isInterface else { return false }
        if property.isRequired { return true }
        guard options.flag("InitializeCollections") else { return false }
        let isAutoQuery =
            type.inherits.map { ["QueryDb", "QueryData"].contains(TypeReference.stripArity($0.name)) } ?? false
        if case .array = property.type { return true }
        return !isAutoQuery
    }

    /// The JSON key clients use: a DataMember name as it is, else camelCase; `Description`
    /// keeps its capital (a `description` would clash with `CustomStringConvertible`); Swift
    /// keywords are back-ticked.
    func propertyName(_ property: MetadataProperty) -> String {
        if case .object(let dataMember)? = property.json["dataMember"], let name = dataMember["name"]?.stringValue {
            return Self.identifier(name)
        }
        if property.name == "Description" { return "Description" }
        return Self.identifier(Self.lowercasingFirst(property.name))
    }

    /// `Name` → `name`: an ASCII capital lowered on its byte, any other first character as Swift lowers it.
    private static func lowercasingFirst(_ name: String) -> String {
        guard let first = name.utf8.first else { return name }
        guard first < 0x80 else { return name.prefix(1).lowercased() + name.dropFirst() }
        guard first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") else { return name }
        var bytes = Array(name.utf8)
        bytes[0] |= 0x20
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A name as a Swift identifier: characters other than letters, digits and `_` become `_`,
    /// and keywords are back-ticked.
    static func identifier(_ name: String) -> String {
        let text = ScriptText.identifier(name)
        return keywords.contains(text) ? "`\(text)`" : text
    }
}
