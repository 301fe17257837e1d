import MockStackCore

/// Writes DTOs as `/types/php` does (docs/servicestack.md#generated-dtos): a backed `enum`, an
/// `interface` whose properties are `@property` tags, and a `class` that extends its .NET base,
/// implements the request's `IReturn` / `IReturnVoid`, its interfaces and `JsonSerializable`, with
/// `@template` tags for generic parameters and arguments, the members of ``PhpMemberWriter``,
/// and for requests `getTypeName`, `getMethod` and `createResponse`.
struct PhpTypeWriter {
    let options: NativeTypesOptions
    let layout: DTOLayout
    let types: PhpTypeMap
    private let members: PhpMemberWriter
    private let annotations: ScriptAnnotations

    /// - Parameter libraryTypes: the client package's types, whose members a class extending
    ///   one passes on to its constructor.
    init(options: NativeTypesOptions, layout: DTOLayout, libraryTypes: [MetadataType]) {
        self.options = options
        self.layout = layout
        let declared = layout.entries.map(\.type)
        let plain = Set(declared.filter { $0.genericArgs.isEmpty }.map(\.name))
        types = PhpTypeMap(
            conflicts: Set(
                declared.filter { $0.genericArgs.count == 1 && plain.contains(TypeReference.stripArity($0.name)) }
                    .map(\.name)))
        annotations = ScriptAnnotations(prefix: "//", isText: { PhpTypeMap.aliases[$0] == "string" })
        members = PhpMemberWriter(
            types: types, options: options, annotations: annotations, declared: declared, libraryTypes: libraryTypes)
    }

    /// A declared type's lines, without the blank line before it.
    func write(_ entry: DTOLayout.Entry) -> [String] {
        let type = entry.type
        var operation: MetadataOperation?
        if case .request(let op) = entry.role { operation = op }
        var lines = members.comment(type.json["description"])
        let marks =
            annotations.routes(operation?.routes ?? []) + (annotations.attributes(type.json["attributes"]) ?? [])
            + annotations.dataContract(type.json["dataContract"])
        lines += marks.map(PhpText.lineComment)
        if type.isEnum { return lines + writeEnum(type) }

        var templates = Templates()
        var extends: String?
        if let base = type.inherits {
            let name = String(types.declaration(base).leftPart("<"))
            extends = name
            templates.add(base.genericArgs, for: name)
        }
        var interfaces: [String] = []
        let response = operation.map(responseMethod)
        if let marker = response?.marker { interfaces.append(marker) }
        for implemented in layout.implemented(by: type) {
            let name = String(types.name(of: implemented.reference).leftPart("<"))
            interfaces.append(name)
            templates.add(implemented.genericArgs, for: name)
        }
        let isClass = !type.isInterface
        if isClass { interfaces.append("JsonSerializable") }
        // A list's subclass is an `ArrayObject` of its element type.
        let listElement = type.inherits?.name == "List`1" ? type.inherits?.genericArgs.first : nil
        var declaration = extends.map { " extends " + (listElement != nil ? "\\ArrayObject" : $0) } ?? ""
        if !interfaces.isEmpty {
            declaration +=
                isClass
                ? " implements " + interfaces.joined(separator: ", ")
                : (declaration.isEmpty ? " extends " : ", ") + interfaces.joined(separator: ", ")
        }

        let name = types.className(type.name, arity: type.genericArgs.count)
        if let returned = response?.returnedClass { lines.append("#[Returns(\(PhpText.literal(returned)))]") }
        lines += docBlock(type, templates: templates)
        lines += ["\(isClass ? "class" : "interface") \(name)\(declaration)", "{"]
        if isClass, operation != nil, let version = options.text("AddImplicitVersion").flatMap({ Int($0) }) {
            lines.append("    public int $version = \(version);")
        }
        if let listElement {
            lines += Self.listMembers(ScriptText.identifier(listElement)).map { "    " + $0 }
        } else if isClass {
            if !type.genericArgs.isEmpty {
                lines += [
                    "    public array $genericArgs = [];",
                    "    public static function create(array $genericArgs=[]): \(name) {",
                    "        $to = new \(name)();", "        $to->genericArgs = $genericArgs;", "        return $to;",
                    "    }", "",
                ]
            }
            var isResponse = false
            if case .response = entry.role { isResponse = true }
            lines += members.lines(
                for: type,
                addingResponseStatus: options.flag("AddResponseStatus") && isResponse
                    && !type.properties.contains { $0.name == "ResponseStatus" })
        }
        if let operation, let response {
            lines.append("    public function getTypeName(): string { return \(PhpText.literal(type.name)); }")
            // Every request names its method, POST when nothing decides it (as every real file has it).
            let method = operation.sendingMethod(types: layout.typesByName)
            lines.append("    public function getMethod(): string { return \(PhpText.literal(method)); }")
            lines.append("    " + response.method)
        }
        return lines + ["}"]
    }

    private func writeEnum(_ type: MetadataType) -> [String] {
        let isInt = type.isEnumInt || type.enumNames.isEmpty || !type.enumValues.isEmpty
        var lines = ["enum \(types.alias(type.name)) : \(isInt ? "int" : "string")", "{"]
        let memberValues = type.json["enumMemberValues"]?.arrayValue?.map { $0.stringValue } ?? []
        for (index, name) in type.enumNames.enumerated() {
            let member = ScriptText.identifier(name)
            if memberValues.indices.contains(index), let value = memberValues[index] {
                lines.append("    case \(member) = \(PhpText.literal(value));")
            } else if type.enumValues.indices.contains(index) {
                let value = type.enumValues[index]
                lines.append("    case \(member) = \(Int(value).map(String.init) ?? PhpText.literal(value));")
            } else {
                lines.append("    case \(member) = \(PhpText.literal(name));")
            }
        }
        return lines + ["}"]
    }

    /// What a request returns: its marker interface (`IReturn`, `IReturnVoid`, none), the class
    /// its `#[Returns]` names, and its `createResponse` method.
    private func responseMethod(
        _ operation: MetadataOperation
    ) -> (marker: String?, returnedClass: String?, method: String) {
        let none = (
            marker: String?.none, returnedClass: String?.none, method: "public function createResponse():void {}"
        )
        if operation.returnsVoid {
            return ("IReturnVoid", nil, "public function createResponse(): void {}")
        }
        let returned: String
        if let returnType = operation.returnType {
            returned =
                PhpTypeMap.returnAliases[returnType.reference.description] ?? types.name(of: returnType.reference)
        } else if options.flag("AddReturnMarker"), let response = operation.response {
            returned = types.name(of: TypeReference(type: response.name, genericArgs: response.genericArgs))
        } else {
            return none
        }
        // Written back as a type argument, where generic arguments are joined by a bare comma.
        var argument = ""
        for character in returned where !(character == " " && argument.last == ",") { argument.append(character) }
        var value = PhpTypeMap.defaultValue(argument)
        var returnedClass = PhpTypeMap.phpType(argument)
        if returnedClass.containsMark("<") {
            let commas = returnedClass.filter { $0 == "," }.count
            let arguments = returnedClass.rightPart("<").lastLeftPart(">").split(separator: ",").map {
                PhpText.literal(String($0))
            }
            returnedClass = String(returnedClass.leftPart("<")) + (commas > 1 ? String(commas) : "")
            value = "\(returnedClass)::create(genericArgs:[\(arguments.joined(separator: ","))])"
        }
        if value == "''" { value = "'string'" }
        if returnedClass == "array" {
            let elements = argument.rightPart("<").lastLeftPart(">").split(separator: ",")
            value = "ArrayList::create([\(elements.map { PhpText.doubleQuoted(String($0)) }.joined(separator: ","))])"
        }
        let method =
            value.map { "public function createResponse(): mixed { return \($0); }" }
            ?? "public function createResponse(): mixed { return new \(returnedClass)(); }"
        return ("IReturn", returnedClass, method)
    }

    /// `/** … */` with an interface's `@property` tags, a generic class's `@template` parameters
    /// and the `@template Name of Argument` of its base's and interfaces' arguments; none when
    /// there are none.
    private func docBlock(_ type: MetadataType, templates: Templates) -> [String] {
        let properties = type.isInterface ? type.properties : []
        guard !type.genericArgs.isEmpty || !properties.isEmpty || !templates.entries.isEmpty else { return [] }
        var lines = ["/**"]
        for property in properties {
            let member = members.member(property, isGeneric: false)
            lines.append(" * @property \(member.type)\(member.isOptional ? "|null" : "") $\(member.name)")
        }
        lines += type.genericArgs.map { " * @template \(PhpText.blockComment($0))" }
        lines += templates.entries.map { " * @template \($0.name) of \(PhpText.blockComment($0.argument))" }
        return lines + [" */"]
    }

    /// The body of a class that extends `List<T>`: an `ArrayObject` that takes, appends and
    /// reads only `T`s.
    private static func listMembers(_ element: String) -> [String] {
        [
            "public function __construct(\(element) ...$items) {",
            "    parent::__construct($items, \\ArrayObject::STD_PROP_LIST);", "}", "",
            "/** @throws \\Exception */", "public function append($value): void {",
            "    if ($value instanceof \(element))", "        parent::append($value);", "    else",
            "        throw new \\Exception(\"Can only append a \(element) to \" . __CLASS__);", "}", "",
            "/** @throws Exception */", "public function fromMap($o): void {", "    foreach ($o as $item) {",
            "        $el = new \(element)();", "        $el->fromMap($item);", "        $this->append($el);", "    }",
            "}",
            "", "/** @throws Exception */", "public function jsonSerialize(): array {",
            "    return parent::getArrayCopy();", "}",
        ]
    }
}

/// The `@template Name of Argument` tags of a class's base and interfaces, in the order first
/// named: the first argument under the generic's name, the next ones numbered (`QueryDb2`,
/// `QueryDb21`); a name given twice keeps its place and takes the later argument.
private struct Templates {
    private(set) var entries: [(name: String, argument: String)] = []

    mutating func add(_ arguments: [String], for name: String) {
        for (index, argument) in arguments.enumerated() {
            let key = index == 0 ? name : name + String(index)
            if let existing = entries.firstIndex(where: { $0.name == key }) {
                entries[existing].argument = argument
            } else {
                entries.append((key, argument))
            }
        }
    }
}
