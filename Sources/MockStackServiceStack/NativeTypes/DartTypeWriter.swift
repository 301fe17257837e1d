import MockStackCore

/// Writes DTOs as `/types/dart` does (docs/servicestack.md#generated-dtos): `enum`, a class of
/// `static const` members for an integer enum, `abstract class` for an interface or abstract
/// type, and `class … implements IConvertible` with the .NET base (`extends`, a list as
/// `ListBase<T>`), the request's `IReturn<T>` / `IReturnVoid` and verb interface, nullable
/// camelCase members, a named-argument constructor, `fromJson`, `fromMap`, `toJson`, and
/// `createResponse`, `getResponseTypeName`, `getTypeName` and the `TypeContext`. Each type it
/// writes, and each type a member converts through, goes to the file's ``DartTypeRegistry``.
struct DartTypeWriter {
    let types: DartTypeMap
    /// Names whose members travel as `String` (.NET structs).
    let structs: Set<String>
    private let addsDescriptions: Bool
    private let addsResponseStatus: Bool
    private let addsReturnMarker: Bool
    private let implicitVersion: Int?
    private let annotations: ScriptAnnotations

    /// The metadata's types by .NET name, the client package's included: the bases a request's
    /// verb is inferred through.
    private let bases: [String: MetadataType]

    init(options: NativeTypesOptions, types: DartTypeMap, structs: Set<String>, bases: [String: MetadataType]) {
        self.types = types
        self.structs = structs
        self.bases = bases
        addsDescriptions = options.flag("AddDescriptionAsComments")
        addsResponseStatus = options.flag("AddResponseStatus")
        addsReturnMarker = options.flag("AddReturnMarker")
        implicitVersion = options.text("AddImplicitVersion").flatMap { Int($0) }
        var annotations = ScriptAnnotations(prefix: "//", isText: { _ in false })
        annotations.camelCasesBareNames = true
        self.annotations = annotations
    }

    /// A member as the class's constructor, `fromMap` and `toJson` name it.
    private struct Member {
        /// The Dart field (`Int` for .NET `Int`, a data member's own name).
        let name: String
        /// The key `fromMap` reads: the .NET name in camelCase.
        let readKey: String
        let type: String
        let convertsJSON: Bool
        /// The constructor's default (the implicit version).
        var value: String?
        /// The metadata's member (none for the implicit version).
        var property: MetadataProperty?
    }

    /// A declared type's lines, without the blank line before it.
    func write(_ entry: DTOLayout.Entry, in layout: DTOLayout, registry: inout DartTypeRegistry) -> [String] {
        let type = entry.type
        var operation: MetadataOperation?
        if case .request(let op) = entry.role { operation = op }
        var lines =
            comment(type.json["description"]) + annotations.routes(operation?.routes ?? [])
            + (annotations.attributes(type.json["attributes"]) ?? [])
            + annotations.dataContract(type.json["dataContract"])
        if type.isEnum { return lines + writeEnum(type, registry: &registry) }
        var isResponse = false
        if case .response = entry.role { isResponse = true }

        var base = type.inherits.map(types.type)
        var interfaces: [String] = []
        var responseLines: [String] = []
        if let marker = returnMarker(operation) {
            interfaces.append(marker)
            if marker.hasPrefix("IReturn<") {
                var returned = String(marker.dropFirst("IReturn<".count).dropLast())
                if returned == "any" { returned = "dynamic" }
                let value = DartTypeMap.defaultValues[returned] ?? DartTypeMap.literal(returned + "()")
                responseLines = ["createResponse() => \(value);", "getResponseTypeName() => \"\(returned)\";"]
                // A generic return type of a generic base is one the registry cannot reach otherwise.
                if returned.containsMark("<"), type.inherits?.name.containsMark("`") == true {
                    registry.register(returned)
                }
            } else {
                responseLines = ["createResponse() {}"]
            }
        }
        interfaces += layout.implemented(by: type).map(types.type)
        let isAbstract = type.isInterface || type.json["isAbstract"]?.boolValue == true
        var hasDTOBase = base != nil
        var listElement: String?
        if let declared = base, declared.hasPrefix("List<") {
            listElement = String(declared.dropFirst(5).dropLast())
            base = "ListBase" + declared.dropFirst(4)
            hasDTOBase = false
        }
        if !isAbstract { interfaces.append("IConvertible") }
        if let operation, let verb = verbInterface(operation), !interfaces.contains(verb) {
            interfaces.append(verb)
        }
        var extends = base.map { " extends " + $0 } ?? ""
        if !interfaces.isEmpty {
            extends +=
                type.isInterface
                ? (extends.isEmpty ? " extends " : ", ") + interfaces.joined(separator: ", ")
                : " implements " + interfaces.joined(separator: ", ")
        }
        let name = types.type(type.name, type.genericArgs)
        registry.register(name, as: type)
        lines += ["\(isAbstract ? "abstract class" : "class") \(name)\(extends)", "{"]

        var body: [String] = []
        let version = operation != nil && !isAbstract ? implicitVersion : nil
        if version != nil { body.append("int version;") }
        // Each member's name and type, worked out once for the fields and the methods.
        var members = type.properties.map(member)
        body += properties(
            members,
            addingResponseStatus: addsResponseStatus && isResponse
                && !type.properties.contains { $0.name == "ResponseStatus" })
        if !type.isInterface {
            if let version {
                members.insert(
                    Member(name: "version", readKey: "version", type: "int", convertsJSON: false, value: "\(version)"),
                    at: 0)
            }
            body += methods(
                of: type, named: name, members: members, hasDTOBase: hasDTOBase, listElement: listElement,
                registry: &registry)
            body += responseLines
            body.append("getTypeName() => \"\(Self.runtimeName(type, declared: name))\";")
            body.append("TypeContext? context = _ctx;")
        }
        return lines + body.map { $0.isEmpty ? $0 : "    " + $0 } + ["}"]
    }

    private func writeEnum(_ type: MetadataType, registry: inout DartTypeRegistry) -> [String] {
        let name = types.type(type.name, type.genericArgs)
        registry.register(name, as: type)
        let names = type.enumNames.map(ScriptText.identifier)
        // 8.41 writes only a `[Flags]` enum as integers (later releases also an `[EnumAsInt]` one).
        let isFlags = type.json["attributes"]?.arrayValue?.contains { $0["name"]?.stringValue == "Flags" } ?? false
        guard (type.isEnumInt && isFlags) || type.enumNames.isEmpty else {
            return ["enum \(name)", "{"] + names.map { "    \($0)," } + ["}"]
        }
        var lines = ["class \(name)", "{"]
        for (index, member) in names.enumerated() {
            let value =
                type.enumValues.indices.contains(index) ? Int(type.enumValues[index]).map(String.init) ?? "" : ""
            lines.append("    static const \(name) \(member) = const \(name)._(\(value));")
        }
        return lines + [
            "", "    final int _value;", "    const \(name)._(this._value);", "    int get value => _value;",
            "    static List<\(name)> get values => const [\(names.joined(separator: ","))];", "}",
        ]
    }

    /// `IReturn<T>` for the operation's return type, `IReturnVoid`, or nil; its response type
    /// only when `AddReturnMarker` asks (the hosts' default is not to).
    private func returnMarker(_ operation: MetadataOperation?) -> String? {
        guard let operation else { return nil }
        if operation.returnsVoid { return "IReturnVoid" }
        if let returned = operation.returnType { return types.type("IReturn`1", [types.type(returned)]) }
        guard addsReturnMarker else { return nil }
        if operation.request.implements("IReturnVoid") { return "IReturnVoid" }
        if let response = operation.response {
            return types.type("IReturn`1", [types.type(response.name, response.genericArgs)])
        }
        return nil
    }

    /// `IGet`… for the verb a request is sent with.
    private func verbInterface(_ operation: MetadataOperation) -> String? {
        // Every request names its verb, POST when nothing decides it (as every real file has it).
        Self.verbInterfaces[operation.sendingMethod(types: bases)]
    }

    private static let verbInterfaces = [
        "GET": "IGet", "POST": "IPost", "PUT": "IPut", "PATCH": "IPatch", "DELETE": "IDelete", "OPTIONS": "IOptions",
    ]

    /// `Name` or, for a generic type, `Name<$T,$U>`: the type arguments' runtime names.
    private static func runtimeName(_ type: MetadataType, declared: String) -> String {
        guard !type.genericArgs.isEmpty else { return declared }
        let arguments = type.genericArgs.map { "$" + ScriptText.identifier(String($0.drop { $0 == "'" })) }
        return ScriptText.identifier(TypeReference.stripArity(type.name)) + "<\(arguments.joined(separator: ","))>"
    }

    // MARK: Members

    private func properties(_ members: [Member], addingResponseStatus: Bool) -> [String] {
        var lines: [String] = []
        var marked = false
        for member in members {
            guard let property = member.property else { continue }
            if marked { lines.append("") }
            let dataMember = annotations.dataMember(property.json["dataMember"])
            let attributes = annotations.attributes(property.json["attributes"])
            lines += comment(property.json["description"]) + dataMember + (attributes ?? [])
            marked = !dataMember.isEmpty || attributes != nil
            lines.append("\(member.type)? \(member.name);")
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines.append("ResponseStatus? responseStatus;")
        }
        return lines
    }

    private func member(_ property: MetadataProperty) -> Member {
        Member(
            name: Self.fieldName(property), readKey: ScriptText.identifier(NameCase.camel(property.name)),
            type: types.memberType(property, structs: structs), convertsJSON: types.convertsJSON(property),
            property: property)
    }

    /// What `fromMap` assigns a member: the JSON value, through a converter for `double` and
    /// `Map<String,String?>`, or `JsonConverters.fromJson` with its type's name, which for a
    /// member typed by the class's own type parameters is worked out at run time.
    private func read(_ member: Member, in type: MetadataType, registry: inout DartTypeRegistry) -> String {
        let key = "json['\(member.readKey)']"
        guard member.convertsJSON, let property = member.property else {
            return DartTypeMap.jsonConverters[member.type].map { "JsonConverters.\($0)(\(key))" } ?? key
        }
        var name = member.type
        let arguments = DartTypeMap.arguments(property)
        let indexes = arguments.compactMap { type.genericArgs.firstIndex(of: $0) }
        if !type.genericArgs.isEmpty, !arguments.isEmpty, indexes.count == arguments.count {
            let declared = ScriptText.identifier(TypeReference.stripArity(property.typeName))
            let positions = indexes.map(String.init).joined(separator: ",")
            name = "\(declared)<${runtimeGenericTypeDefs(this,[\(positions)]).join(\",\")}>"
        } else {
            registry.registerMember(member.type, rawType: types.rawMemberType(property, structs: structs))
        }
        return "JsonConverters.fromJson(\(key),'\(name)',context!)"
    }

    /// The constructors, `fromMap` and `toJson`, each member converted through `JsonConverters`
    /// when its type is not one JSON gives as it is.
    private func methods(
        of type: MetadataType, named name: String, members: [Member], hasDTOBase: Bool, listElement: String?,
        registry: inout DartTypeRegistry
    ) -> [String] {
        let bare = String(name.prefix { $0 != "<" })
        var lines: [String] = members.isEmpty ? [] : [""]
        if let element = listElement {
            lines += [
                "final List<\(element)> l = [];", "set length(int newLength) { l.length = newLength; }",
                "int get length => l.length;", "\(element) operator [](int index) => l[index];",
                "void operator []=(int index, \(element) value) { l[index] = value; }",
            ]
        }
        if members.isEmpty {
            lines += [
                "\(bare)();",
                "\(bare).fromJson(Map<String, dynamic> json) : \(hasDTOBase ? "super.fromJson(json);" : "super();")",
            ]
        } else {
            let arguments = members.map { "this.\($0.name)" + ($0.value.map { "=" + $0 } ?? "") }
            lines += [
                "\(bare)({\(arguments.joined(separator: ","))});",
                "\(bare).fromJson(Map<String, dynamic> json) { fromMap(json); }", "",
            ]
        }
        lines.append("fromMap(Map<String, dynamic> json) {")
        if hasDTOBase { lines.append("    super.fromMap(json);") }
        for member in members {
            lines.append("    \(member.name) = \(read(member, in: type, registry: &registry));")
        }
        lines += ["    return this;", "}", ""]
        if members.isEmpty {
            lines.append("Map<String, dynamic> toJson() => \(hasDTOBase ? "super.toJson();" : "{};")")
        } else {
            lines.append("Map<String, dynamic> toJson() => \(hasDTOBase ? "super.toJson()..addAll(" : ""){")
            lines += members.map { member in
                let key = NameCase.camel(member.name)
                let value =
                    member.convertsJSON
                    ? "JsonConverters.toJson(\(member.name),'\(member.type)',context!)" : member.name
                return "    '\(key)': \(value)"
            }.joinedWithCommas()
            lines += [hasDTOBase ? "});" : "};", ""]
        }
        return lines
    }
}

extension DartTypeWriter {
    /// Dart's reserved words: a member named one is capitalised (`Int`, `Double`).
    static let reservedWords: Set<String> = [
        "int", "double", "bool", "abstract", "else", "import", "show", "as", "enum", "in", "static", "assert",
        "export", "interface", "super", "async", "extends", "is", "switch", "await", "extension", "late", "sync",
        "break", "external", "library", "this", "case", "factory", "mixin", "throw", "catch", "false", "new", "true",
        "class", "final", "null", "try", "const", "finally", "on", "typedef", "continue", "for", "operator", "var",
        "covariant", "Function", "part", "void", "default", "get", "required", "while", "deferred", "hide",
        "rethrow", "with", "do", "if", "return", "yield", "dynamic", "implements", "set",
    ]

    /// A member's Dart name: a data member's own name (made of letters, digits and `_`), else
    /// camelCase; a reserved word capitalised.
    static func fieldName(_ property: MetadataProperty) -> String {
        var name = ScriptText.identifier(NameCase.camel(property.name))
        if case .object(let member)? = property.json["dataMember"], let alias = member["name"]?.stringValue,
            !alias.isEmpty
        {
            name = ScriptText.identifier(alias)
        }
        guard reservedWords.contains(name), let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// `/**`, `* text`, `*/` when descriptions are comments.
    func comment(_ value: JSONValue?) -> [String] {
        guard addsDescriptions, let text = value?.stringValue else { return [] }
        return ["/**", "* " + ScriptAnnotations.oneLine(text).replacingCommentEnds(), "*/"]
    }
}

extension Array where Element == String {
    /// Each line but the last ended with a comma.
    fileprivate func joinedWithCommas() -> [String] {
        enumerated().map { $0.offset < count - 1 ? $0.element + "," : $0.element }
    }
}
