import MockStackCore

/// Writes DTOs as `/types/python` does (docs/servicestack.md#generated-dtos): `str, Enum` / `IntEnum` classes, and
/// `@dataclass_json` + `@dataclass` classes (interfaces without them) whose bases are the .NET
/// base, the request's `IReturn[T]` / `IReturnVoid` and its interfaces; snake_case members
/// with defaults (`0`, `None`, `field(default_factory=list)`); descriptions as docstrings.
struct PythonTypeWriter {
    let options: NativeTypesOptions
    let types: PythonTypeMap
    let dataClass: String
    let dataClassJson: String
    /// The flags read for every member, read once.
    private let members: ScriptMemberOptions
    private let annotations = ScriptAnnotations(
        prefix: "#", isText: { _ in false }, ignored: ["DataContract", "DataMember"])

    init(options: NativeTypesOptions, conflicts: Set<String>) {
        self.options = options
        types = PythonTypeMap(conflicts: conflicts)
        members = ScriptMemberOptions(options)
        let dataClass = options.text("DataClass") ?? ""
        let dataClassJson = options.text("DataClassJson") ?? ""
        self.dataClass = dataClass.isEmpty ? "@dataclass" : "@dataclass(\(ScriptAnnotations.oneLine(dataClass)))"
        self.dataClassJson =
            dataClassJson.isEmpty
            ? "@dataclass_json(letter_case=LetterCase.CAMEL, undefined=Undefined.EXCLUDE)"
            : "@dataclass_json(\(ScriptAnnotations.oneLine(dataClassJson)))"
    }

    /// A declared type's lines, without the two blank lines before it.
    func write(_ entry: DTOLayout.Entry, in layout: DTOLayout) -> [String] {
        let type = entry.type
        var operation: MetadataOperation?
        if case .request(let op) = entry.role { operation = op }
        var lines =
            annotations.routes(operation?.routes ?? []) + (annotations.attributes(type.json["attributes"]) ?? [])
        if type.isEnum {
            lines += writeEnum(type)
        } else {
            lines += writeClass(
                type, operation: operation, isResponse: { if case .response = entry.role { true } else { false } }(),
                implements: layout.implemented(by: type))
        }
        return lines
    }

    private func writeEnum(_ type: MetadataType) -> [String] {
        let isInt = type.isEnumInt || type.json["enumValues"] != nil
        var lines = ["class \(declaredName(type))(\(isInt ? "IntEnum" : "str, Enum")):"]
        lines += docs(type.json["description"])
        if type.json["description"]?.stringValue != nil && members.addsDescriptions { lines.append("") }
        let memberValues = type.json["enumMemberValues"]?.arrayValue?.map { $0.stringValue } ?? []
        for (index, name) in type.enumNames.enumerated() {
            let member = PythonTypeMap.enumMemberName(ScriptText.identifier(name))
            if memberValues.indices.contains(index), let value = memberValues[index] {
                lines.append("    \(member) = \(ScriptText.literal(value))")
            } else if type.enumValues.indices.contains(index) {
                lines.append(
                    """
                        \(member) = \
                    \(Int(type.enumValues[index]).map(String.init) ?? ScriptText.literal(type.enumValues[index]))
                    """
                )
            } else {
                lines.append("    \(member) = \(ScriptText.literal(name))")
            }
        }
        if type.enumNames.isEmpty { lines.append("    pass") }
        return lines
    }

    private func writeClass(
        _ type: MetadataType, operation: MetadataOperation?, isResponse: Bool, implements: [MetadataTypeName]
    ) -> [String] {
        var bases: [String] = []
        if let base = type.inherits { bases.append(selfReferenced(types.name(of: base.reference), in: type)) }
        let marker = returnMarker(operation)
        let abstractReturn = marker == nil ? abstractReturnMarker(type) : nil
        if let marker = marker ?? abstractReturn?.marker { bases.append(selfReferenced(marker, in: type)) }
        for implemented in implements {
            bases.append(selfReferenced(types.name(of: implemented.reference), in: type))
        }
        var lines: [String] = []
        var declaration = types.alias(TypeReference.stripArity(type.name), arity: type.genericArgs.count)
        if !type.genericArgs.isEmpty {
            let parameters = type.genericArgs.map(Self.parameter)
            lines += parameters.map { "\($0) = TypeVar('\($0)')" } + ["", ""]
            bases.insert("Generic[\(parameters.joined(separator: ", "))]", at: 0)
        }
        if !bases.isEmpty { declaration += "(\(bases.joined(separator: ", ")))" }
        if !type.isInterface { lines += [dataClassJson, dataClass] }
        lines.append("class \(declaration):")
        let description = docs(type.json["description"])
        lines += description + (description.isEmpty ? [] : [""])
        let version = operation != nil ? options.text("AddImplicitVersion").flatMap { Int($0) } : nil
        if let version { lines.append("    version: int = \(version)") }
        lines += properties(
            type,
            addingResponseStatus: isResponse && options.flag("AddResponseStatus")
                && !type.properties.contains { $0.name == "ResponseStatus" })
        if let abstractReturn {
            lines += ["    @staticmethod", "    def response_type(): return \(abstractReturn.responseType)"]
        } else if type.properties.isEmpty && version == nil {
            lines.append("    pass")
        }
        return lines
    }

    /// An abstract class with no return marker of its own that implements `IReturn<T>` itself
    /// (`CreateAuditBase<Table, TResponse>`): `IReturn[T]` with `response_type()` returning `T`,
    /// or `IReturnVoid` returning `None`, as ServiceStack's Python generator writes for a generic
    /// base whose subclasses inherit their response type (the Swift and TypeScript generators
    /// write neither).
    private func abstractReturnMarker(_ type: MetadataType) -> (marker: String, responseType: String)? {
        guard type.json["isAbstract"]?.boolValue == true else { return nil }
        if let returned = type.returnMarkerReference {
            let name = types.name(of: returned)
            return ("IReturn[\(name)]", name)
        }
        return type.implements("IReturnVoid") ? ("IReturnVoid", "None") : nil
    }

    /// `IReturn[T]` (the operation's return type) or `IReturnVoid`. A return type naming the
    /// request itself quotes it, a forward reference: `IReturn[QueryResponse["MessageQuery"]]`.
    private func returnMarker(_ operation: MetadataOperation?) -> String? {
        guard let operation else { return nil }
        if operation.returnsVoid || operation.request.implements("IReturnVoid") { return "IReturnVoid" }
        guard
            let returned = (operation.returnType?.reference ?? operation.request.returnMarkerReference).map(types.name)
        else { return nil }
        return "IReturn[\(Self.quoting(declaredName(operation.request), in: returned))]"
    }

    /// `text` (a type expression such as `QueryResponse[MessageQuery]`) with each whole
    /// occurrence of the name `name` quoted, a forward reference; a longer name that merely
    /// contains it (`QueryResponse` for `Query`) is left as it is.
    static func quoting(_ name: String, in text: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            result += word == name ? "\"\(name)\"" : word
            word = ""
        }
        for character in text {
            if character == "[" || character == "]" || character == "," || character == " " {
                flush()
                result.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return result
    }

    /// `IReturn[AllTypes]` inside `AllTypes` itself is written `IReturn["AllTypes"]`, a forward reference.
    private func selfReferenced(_ base: String, in type: MetadataType) -> String {
        let name = declaredName(type)
        guard let open = base.firstIndex(of: "[") else { return base }
        let argument = base[base.index(after: open)...].prefix { $0 != "]" }
        return argument == name
            ? base[..<open] + "[\"\(name)\"" + base[base.index(after: open)...].dropFirst(name.count) : base
    }

    private func properties(_ type: MetadataType, addingResponseStatus: Bool) -> [String] {
        var lines: [String] = []
        var marked = false
        for (index, property) in type.properties.enumerated() {
            if marked { lines.append("") }
            let attributes = annotations.attributes(property.json["attributes"])
            marked = attributes != nil
            lines += (attributes ?? []).map { "    " + $0 }
            lines.append("    " + declaration(property, in: type))
            let description = docs(property.json["description"])
            lines += description
            if !description.isEmpty && index != type.properties.count - 1 { lines.append("") }
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines.append("    response_status: ResponseStatus = None")
        }
        return lines
    }

    /// `name: int = 0`, `name: Optional[str] = None`, `tags: List[str] = field(default_factory=list)`,
    /// `from_: Optional[str] = field(metadata=config(field_name='from'), default=None)`.
    func declaration(_ property: MetadataProperty, in type: MetadataType) -> String {
        var pythonType = types.name(of: DTOLayout.memberType(property))
        var defaultValue = "None"
        let required = property.json["isRequired"]?.boolValue
        let isCollection = SwiftTypeMap.isCollection(property.type)
        if isCollection, required == true || members.initializesCollections, !ScriptText.isAutoQuery(type),
            !type.isInterface
        {
            defaultValue =
                SwiftTypeMap.isDictionary(property.type) ? "field(default_factory=dict)" : "field(default_factory=list)"
        } else if members.makesPropertiesOptional || required == false {
            pythonType = Self.optional(pythonType)
        } else if let value = PythonTypeMap.defaults[property.typeName] {
            defaultValue = value
        } else {
            pythonType = Self.optional(pythonType)
        }
        let name = PythonTypeMap.memberName(ScriptText.identifier(property.name))
        guard name.hasSuffix("_") else { return "\(name): \(pythonType) = \(defaultValue)" }
        return
            "\(name): \(pythonType) = field(metadata=config(field_name='\(name.dropLast())'), default=\(defaultValue))"
    }

    private static func optional(_ type: String) -> String { type.hasPrefix("Optional[") ? type : "Optional[\(type)]" }

    /// `Name` or `Name[T, U]`.
    private func declaredName(_ type: MetadataType) -> String {
        let name = types.alias(TypeReference.stripArity(type.name), arity: type.genericArgs.count)
        return type.genericArgs.isEmpty
            ? name : "\(name)[\(type.genericArgs.map(Self.parameter).joined(separator: ", "))]"
    }

    /// A docstring, indented, when descriptions are comments.
    private func docs(_ value: JSONValue?) -> [String] {
        guard members.addsDescriptions, let text = value?.stringValue else { return [] }
        return ["    \"\"\"", "    " + ScriptAnnotations.oneLine(text).replacingTripleQuotes(), "    \"\"\""]
    }

    private static func parameter(_ name: String) -> String { ScriptText.identifier(String(name.drop { $0 == "'" })) }
}
