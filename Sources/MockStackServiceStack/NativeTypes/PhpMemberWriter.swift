import MockStackCore

/// The members of a `/types/php` class (docs/servicestack.md#generated-dtos): a constructor that
/// promotes each property (`public ?string $name=null`) after taking its bases' properties as
/// plain parameters for `parent::__construct`, `fromMap` that reads a decoded JSON object, and
/// `jsonSerialize` that writes one, converting what JSON cannot carry as it is (dates, nested
/// DTOs, collections) through the package's `JsonConverters`.
struct PhpMemberWriter {
    let types: PhpTypeMap
    let annotations: ScriptAnnotations
    private let makesPropertiesOptional: Bool
    private let addsDescriptions: Bool
    /// The file's types by name (the first of a name), where a base is looked for first.
    private let declared: [String: MetadataType]
    /// The client package's types by name, where a base is looked for next: their own members
    /// only, as ServiceStack reads them from the package's classes.
    private let libraryTypes: [String: MetadataType]

    init(
        types: PhpTypeMap, options: NativeTypesOptions, annotations: ScriptAnnotations, declared: [MetadataType],
        libraryTypes: [MetadataType]
    ) {
        self.types = types
        self.annotations = annotations
        makesPropertiesOptional = options.flag("MakePropertiesOptional")
        addsDescriptions = options.flag("AddDescriptionAsComments")
        self.declared = Dictionary(declared.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.libraryTypes = Dictionary(libraryTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A property as a constructor parameter: its JSON name, its type, whether it may be null,
    /// what it starts as, its PHP type and the type its doc comment gives.
    struct Member {
        let name: String
        let type: String
        let isOptional: Bool
        let defaultValue: String
        let phpType: String
        let docType: String
    }

    /// - Parameter isGeneric: the class is generic, so every member is `mixed`.
    func member(_ property: MetadataProperty, isGeneric: Bool) -> Member {
        let type = types.name(of: DTOLayout.memberType(property))
        let isNullable = property.typeName == "Nullable`1" || !property.isValueType
        let isOptional =
            makesPropertiesOptional || (property.json["isRequired"]?.boolValue.map { !$0 } ?? isNullable)
        let defaultValue = (isOptional ? nil : PhpTypeMap.defaultValue(type)) ?? "null"
        let arity = arguments(property).count
        let declared =
            type.hasPrefix("array<") || type.hasSuffix("[]")
            ? "array"
            : arity == 0 ? type : String(type.leftPart("<")) + (arity > 1 ? String(arity) : "")
        let phpType = isGeneric ? "mixed" : (isOptional || defaultValue == "null" ? "?" : "") + declared
        var docType =
            !type.hasPrefix("array") && type.containsMark("<")
            ? String(phpType.drop { $0 == "?" }) + "<" + type.rightPart("<") : type
        if defaultValue == "null" { docType += "|null" }
        return Member(
            name: Self.name(property), type: type, isOptional: isOptional, defaultValue: defaultValue,
            phpType: phpType, docType: docType)
    }

    /// The constructor, `fromMap` and `jsonSerialize` of a class, indented for its body.
    func lines(for type: MetadataType, addingResponseStatus: Bool) -> [String] {
        let isGeneric = !type.genericArgs.isEmpty
        let bases = bases(of: type)
        var lines: [String] = []
        var toJSON = [type.inherits == nil ? "$o = [];" : "$o = parent::jsonSerialize();"]
        if bases.contains(where: { !$0.properties.isEmpty }) || !type.properties.isEmpty {
            var parameters: [String] = []
            var baseNames: [String] = []
            if bases.contains(where: { !$0.properties.isEmpty }) {
                lines.append("    /**")
                for property in bases.flatMap(\.properties) {
                    let member = member(property, isGeneric: isGeneric)
                    baseNames.append("$" + member.name)
                    lines.append("     * @param \(member.docType) $\(member.name)")
                    parameters.append("        \(member.phpType) $\(member.name)=\(member.defaultValue),")
                }
                lines.append("     */")
            }
            lines.append("    public function __construct(")
            lines += parameters
            var separated = false
            for property in type.properties {
                let member = member(property, isGeneric: isGeneric)
                if baseNames.contains("$" + member.name) { continue }
                if separated { lines.append("") }
                let dataMember = annotations.dataMember(property.json["dataMember"])
                let attributes = annotations.attributes(property.json["attributes"])
                separated = !dataMember.isEmpty || attributes != nil
                lines += comment(property.json["description"]).map { "        " + $0 }
                lines += (dataMember + (attributes ?? [])).map { "        " + PhpText.lineComment($0) }
                lines.append("        /** @var \(member.docType) */")
                lines.append("        public \(member.phpType) $\(member.name)=\(member.defaultValue),")
            }
            if addingResponseStatus {
                if separated { lines.append("") }
                lines += ["        /** @var ResponseStatus|null */", "        public $responseStatus=ResponseStatus,"]
            }
            if let last = lines.indices.last, lines[last].hasSuffix(",") { lines[last].removeLast() }
            lines.append("    ) {")
            if !baseNames.isEmpty { lines.append("        parent::__construct(\(baseNames.joined(separator: ",")));") }
            lines += ["    }", "", "    /** @throws Exception */", "    public function fromMap($o): void {"]
            if !bases.isEmpty { lines.append("        parent::fromMap($o);") }
            let genericIndexes = Dictionary(
                type.genericArgs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
            for property in type.properties {
                let (from, to) = conversion(property, isGeneric: isGeneric, genericIndexes: genericIndexes)
                let name = Self.name(property)
                lines.append("        if (isset($o['\(name)'])) $this->\(name) = \(from("$o['\(name)']"));")
                toJSON.append("if (isset($this->\(name))) $o['\(name)'] = \(to("$this->\(name)"));")
            }
            lines.append("    }")
        }
        guard type.inherits?.name != "List`1" else { return lines }
        return lines + ["    ", "    /** @throws Exception */", "    public function jsonSerialize(): mixed", "    {"]
            + toJSON.map { "        " + $0 } + ["        return empty($o) ? new class(){} : $o;", "    }"]
    }

    /// How `fromMap` reads a property's JSON value and `jsonSerialize` writes it: as it is for
    /// text, numbers and flags, else through `JsonConverters` with the PHP class (or the
    /// class's own generic argument) that reads it.
    private func conversion(
        _ property: MetadataProperty, isGeneric: Bool, genericIndexes: [String: Int]
    )
        -> (from: (String) -> String, to: (String) -> String)
    {
        func quoted(_ text: String) -> String {
            let type = PhpTypeMap.phpType(text)
            return genericIndexes[type].map { "$this->genericArgs[\($0)]" } ?? PhpText.literal(type)
        }
        func converting(_ kind: String, _ argument: String) -> (from: (String) -> String, to: (String) -> String) {
            ({ "JsonConverters::from\(kind)(\(argument), \($0))" }, { "JsonConverters::to\(kind)(\(argument), \($0))" })
        }
        let asIs: (from: (String) -> String, to: (String) -> String) = ({ $0 }, { $0 })
        let declared = property.typeName
        let arguments = arguments(property)
        let type = types.name(of: DTOLayout.memberType(property))
        if (property.isValueType || declared == "String") && !property.isEnum && arguments.isEmpty
            && !PhpTypeMap.convertedValueTypes.contains(declared)
        {
            return asIs
        }
        if PhpTypeMap.dictionaryTypes.contains(declared) {
            let pair = arguments.count == 2 ? arguments : ["string", "object"]
            return converting(
                "", "JsonConverters::context('Dictionary',genericArgs:[\(quoted(pair[0])),\(quoted(pair[1]))])")
        }
        if PhpTypeMap.arrayTypes.contains(declared) { return converting("Array", quoted(arguments.first ?? "object")) }
        if type.hasSuffix("[]") { return converting("Array", quoted(String(type.leftPart("[")))) }
        let phpType = PhpTypeMap.phpType(type)
        if isGeneric { return converting("", quoted(type)) }
        if phpType.hasPrefix("array"), let first = arguments.first { return converting("Array", quoted(first)) }
        guard let first = arguments.first else { return converting("", PhpText.literal(phpType)) }
        let className = types.className(declared, arity: arguments.count)
        if className == "Nullable" {
            if PhpTypeMap.defaultValues[first] != nil && !PhpTypeMap.convertedValueTypes.contains(first) { return asIs }
            return converting("", PhpText.literal(PhpTypeMap.phpType(first)))
        }
        let list = arguments.map { PhpText.literal(PhpTypeMap.phpType($0)) }.joined(separator: ",")
        return converting("", "JsonConverters::context(\(PhpText.literal(className)),genericArgs:[\(list)])")
    }

    /// Each base class the file or the client package declares, the furthest first.
    private func bases(of type: MetadataType) -> [MetadataType] {
        var result: [MetadataType] = []
        var base = type.inherits
        // By name alone: a PHP file has one namespace, and metadata may name a base's namespace
        // otherwise than the base's own declaration does.
        while let name = base?.name, result.count < 64 {
            if let found = declared[name] {
                result.append(found)
                base = found.inherits
            } else if let found = libraryTypes[name] {
                // The package's class is read on its own: what it inherits is not followed.
                result.append(found)
                base = nil
            } else {
                base = nil
            }
        }
        return result.reversed()
    }

    /// `/** @description text */` when descriptions are comments.
    func comment(_ value: JSONValue?) -> [String] {
        guard addsDescriptions, let text = value?.stringValue else { return [] }
        return ["/** @description \(PhpText.blockComment(text)) */"]
    }

    /// The property's generic arguments as metadata writes them (`String`, `List<Poco>`).
    private func arguments(_ property: MetadataProperty) -> [String] {
        property.genericArgs ?? []
    }

    /// The JSON name: a data member's own name, else camelCase.
    static func name(_ property: MetadataProperty) -> String {
        if case .object(let member)? = property.json["dataMember"], let name = member["name"]?.stringValue {
            return ScriptText.identifier(name)
        }
        return ScriptText.identifier(NameCase.camel(property.name))
    }
}
