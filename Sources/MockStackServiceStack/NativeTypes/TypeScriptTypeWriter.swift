import MockStackCore

/// Writes DTOs as `/types/typescript` does (docs/servicestack.md#generated-dtos): `export enum`,
/// `export interface`, and `export class` with the .NET base (`extends`), the request's
/// `IReturn<T>` / `IReturnVoid` and interfaces (`implements`), camelCase members (`public name?:
/// string;`), a `Partial<T>` constructor, and for requests `createResponse`, `getTypeName`,
/// `getMethod`. For `/types/typescript.d` (``declaresOnly``) every type is an `interface`
/// extending its base and markers, every enum a union of its names, and nothing has a body.
struct TypeScriptTypeWriter {
    let options: NativeTypesOptions
    let types: TypeScriptTypeMap
    /// Declarations only, as ServiceStack writes them when it does not export types as classes.
    let declaresOnly: Bool
    /// The flags read for every member, read once.
    private let members: ScriptMemberOptions
    private let annotations = ScriptAnnotations(prefix: "//", isText: { TypeScriptTypeMap.aliases[$0] == "string" })

    init(options: NativeTypesOptions, conflicts: Set<String>, declaresOnly: Bool = false) {
        self.options = options
        self.declaresOnly = declaresOnly
        types = TypeScriptTypeMap(conflicts: conflicts)
        members = ScriptMemberOptions(options)
    }

    /// A declared type's lines, without the blank line before it; a base that is a dictionary
    /// first asks for the `Dictionary<T>` class (`needsDictionary`).
    func write(_ entry: DTOLayout.Entry, in layout: DTOLayout, needsDictionary: inout Bool) -> [String] {
        let type = entry.type
        var operation: MetadataOperation?
        if case .request(let op) = entry.role { operation = op }
        var lines =
            comment(type.json["description"]) + annotations.routes(operation?.routes ?? [])
            + (annotations.attributes(type.json["attributes"]) ?? [])
        if !type.isInterface { lines += annotations.dataContract(type.json["dataContract"]) }
        if type.isEnum { return lines + (declaresOnly ? [unionOfNames(type)] : writeEnum(type)) }
        // A declaration is an interface whatever the .NET type is.
        let isInterface = declaresOnly || type.isInterface
        var isResponse = false
        if case .response = entry.role { isResponse = true }

        var extends = ""
        if let base = type.inherits {
            let declared = declarationType(base)
            if declared.hasPrefix("Dictionary<"), !needsDictionary {
                needsDictionary = true
                lines += ["export class Dictionary<T> { [Key: string]: T; }", ""]
            }
            extends = " extends " + declared
        }
        let marker = returnMarker(operation)
        let interfaces =
            (marker.map { [$0.declaration] } ?? [])
            + layout.implemented(by: type).map { types.name(of: $0.reference).name }
        if !interfaces.isEmpty {
            extends +=
                isInterface
                ? (extends.isEmpty ? " extends " : ", ") + interfaces.joined(separator: ", ")
                : " implements " + interfaces.joined(separator: ", ")
        }
        let name = declaredName(type)
        let keyword = declaresOnly ? "interface" : "export \(type.isInterface ? "interface" : "class")"
        lines += ["\(keyword) \(name)\(extends)", "{"]
        let modifier = isInterface ? "" : "public "
        if operation != nil, let version = options.text("AddImplicitVersion").flatMap({ Int($0) }) {
            lines.append("    \(modifier)version\(isInterface ? "?" : ""): number; //\(version)")
        }
        if !declaresOnly {
            if type.name == "IReturn`1" { lines.append("    createResponse(): T;") }
            if type.name == "IReturnVoid" { lines.append("    createResponse(): void;") }
        }
        lines += properties(
            type, modifier: modifier, isInterface: isInterface,
            addingResponseStatus: isResponse && options.flag("AddResponseStatus")
                && !type.properties.contains { $0.name == "ResponseStatus" })
        if !isInterface {
            let callsSuper =
                type.inherits == nil
                ? ""
                : extends.hasPrefix(" extends Array<") || extends.hasPrefix(" extends Dictionary<")
                    ? "super(); " : "super(init); "
            lines += [
                "",
                "    public constructor(init?: Partial<\(name)>) { \(callsSuper)(Object as any).assign(this, init); }",
            ]
            if let operation {
                lines.append("    public getTypeName() { return '\(TypeReference.stripArity(type.name))'; }")
                if let method = Self.method(of: operation, types: layout.typesByName) {
                    lines.append("    public getMethod() { return '\(method)'; }")
                }
                lines.append("    public createResponse() \(marker?.body ?? "{}")")
            }
        }
        lines.append("}")
        return lines
    }

    private func writeEnum(_ type: MetadataType) -> [String] {
        var lines = ["export enum \(TypeReference.stripArity(type.name))", "{"]
        let memberValues = type.json["enumMemberValues"]?.arrayValue?.map { $0.stringValue } ?? []
        for (index, name) in type.enumNames.enumerated() {
            let member = ScriptText.identifier(name)
            if memberValues.indices.contains(index), let value = memberValues[index] {
                lines.append("    \(member) = \(ScriptText.literal(value)),")
            } else if type.enumValues.indices.contains(index), let value = Int(type.enumValues[index]) {
                lines.append("    \(member) = \(value),")
            } else {
                lines.append("    \(member) = \(ScriptText.literal(name)),")
            }
        }
        return lines + ["}"]
    }

    /// What a request's marker says it answers: nothing (`IReturnVoid`) or a type.
    enum Response {
        case void
        case type(String)
    }

    /// The request's marker; nil when it names no response. The type is as a member would have
    /// it, but for the return types the file names otherwise (`aliases`, by .NET name), and an
    /// index type, which a marker cannot name, is `any` (as ServiceStack's is).
    func response(
        of operation: MetadataOperation, aliases: [String: String] = TypeScriptTypeMap.returnAliases
    ) -> Response? {
        if operation.returnsVoid || operation.request.implements("IReturnVoid") { return .void }
        guard let reference = operation.returnType?.reference ?? operation.request.returnMarkerReference else {
            return nil
        }
        let returned = aliases[reference.description] ?? types.name(of: reference).name
        return .type(returned.hasPrefix("{") ? "any" : returned)
    }

    /// A value of a response type that can be written without naming more (`''`, `0`), else nil.
    static func plainValue(of type: String) -> String? {
        switch type {
        case "string": "''"
        case "number": "0"
        case "boolean": "false"
        case "any": "{}"
        case "Uint8Array": "new Uint8Array(0)"
        default: nil
        }
    }

    /// The method a request names (`getMethod`): its own, else the one its markers, routes or
    /// AutoQuery kind imply, else POST (as every real file has it); nil if it is not a word.
    static func method(of operation: MetadataOperation, types: [String: MetadataType]) -> String? {
        let method = operation.sendingMethod(types: types)
        return method.allSatisfy({ $0.isLetter }) ? method : nil
    }

    /// `IReturn<T>` with what `createResponse` returns, or `IReturnVoid` with an empty body.
    private func returnMarker(_ operation: MetadataOperation?) -> (declaration: String, body: String)? {
        guard let operation, let response = response(of: operation) else { return nil }
        guard case .type(let returned) = response else { return ("IReturnVoid", "{}") }
        let value =
            Self.plainValue(of: returned)
            ?? (returned.hasSuffix("[]") ? "new Array<\(returned.dropLast(2))>()" : "new \(returned)()")
        return ("IReturn<\(returned)>", "{ return \(value); }")
    }

    /// A base: `Array<T>` for a list, `Dictionary<V>` for a dictionary, else its type.
    func declarationType(_ base: MetadataTypeName) -> String {
        let reference = base.reference
        if case .named(let name, let arguments) = reference {
            if arguments.count == 1 && TypeScriptTypeMap.sequences.contains(name) {
                return "Array<\(types.argument(arguments[0]))>"
            }
            if arguments.count == 2 && TypeScriptTypeMap.dictionaries.contains(name) {
                return "Dictionary<\(types.argument(arguments[1]))>"
            }
        }
        let name = types.name(of: reference).name
        if name.hasPrefix("{") { return "any" }
        if name.hasSuffix("[]") { return "Array<\(name.dropLast(2))>" }
        return name
    }

    /// A declaration's enum: `type Name = "A" | "B";`, the .NET names whatever their values.
    private func unionOfNames(_ type: MetadataType) -> String {
        let names = type.enumNames.map { ScriptAnnotations.quoted($0) }
        return "type \(TypeReference.stripArity(type.name)) = \(names.joined(separator: " | "));"
    }

    private func properties(
        _ type: MetadataType, modifier: String, isInterface: Bool, addingResponseStatus: Bool
    ) -> [String] {
        var lines: [String] = []
        var marked = false
        for property in type.properties {
            if marked { lines.append("") }
            let (typeName, nullable) = types.name(of: DTOLayout.memberType(property))
            let optional = isOptional(property, nullable: nullable)
            let dataMember = annotations.dataMember(property.json["dataMember"])
            let attributes = annotations.attributes(property.json["attributes"])
            marked = !dataMember.isEmpty || attributes != nil
            lines += (comment(property.json["description"]) + dataMember + (attributes ?? [])).map { "    " + $0 }
            // Never in an interface, where a value cannot be.
            let initializer = isInterface ? "" : initializer(property, typeName: typeName, in: type)
            lines.append("    \(modifier)\(memberName(property))\(optional ? "?" : ""): \(typeName)\(initializer);")
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines.append("    \(modifier)responseStatus\(declaresOnly ? "?" : ""): ResponseStatus;")
        }
        return lines
    }

    /// ` = []` or ` = {}` for a collection that starts empty: a required one, or every one when
    /// asked (`InitializeCollections`), but an AutoQuery filter's; else nothing.
    func initializer(_ property: MetadataProperty, typeName: String, in type: MetadataType) -> String {
        guard property.isRequired || members.initializesCollections,
            typeName.hasSuffix("[]") || typeName.hasPrefix("{ [index"), !ScriptText.isAutoQuery(type)
        else { return "" }
        return typeName.hasPrefix("{") ? " = {}" : " = []"
    }

    /// Optional unless required: marked so (a non-nullable reference of a host that annotates
    /// nullability) or a value type that is not `Nullable<T>` (`nullable`), or every member
    /// under `MakePropertiesOptional`.
    func isOptional(_ property: MetadataProperty, nullable: Bool) -> Bool {
        members.makesPropertiesOptional || !(property.isRequired || (property.isValueType && !nullable))
    }

    /// The JSON name: a data member's own name, else camelCase.
    func memberName(_ property: MetadataProperty) -> String {
        if case .object(let member)? = property.json["dataMember"], let name = member["name"]?.stringValue {
            return ScriptText.identifier(name)
        }
        return ScriptText.identifier(NameCase.camel(property.name))
    }

    /// `Name` or `Name<T, U>`.
    private func declaredName(_ type: MetadataType) -> String {
        let parameters = typeParameters(type)
        return parameters.isEmpty ? className(type) : "\(className(type))<\(parameters.joined(separator: ", "))>"
    }

    /// The name a type is declared by, without its parameters (`QueryDb_2` where several arities are).
    func className(_ type: MetadataType) -> String {
        types.alias(TypeReference.stripArity(type.name), arity: type.genericArgs.count)
    }

    /// A generic type's parameters (`T`, `TKey`).
    func typeParameters(_ type: MetadataType) -> [String] {
        type.genericArgs.map { ScriptText.identifier(String($0.drop { $0 == "'" })) }
    }

    /// `/** @description text */` when descriptions are comments, as today's generator writes
    /// them (the 2021 files had `/**`, `* text`, `*/` on three lines).
    func comment(_ value: JSONValue?) -> [String] {
        guard members.addsDescriptions, let text = value?.stringValue else { return [] }
        return ["/** @description \(ScriptAnnotations.oneLine(text).replacingCommentEnds()) */"]
    }
}

extension String {
    /// `*/` inside a block comment would end it.
    func replacingCommentEnds() -> String { separating("*", "/") }

    /// The text with a space put between `first` and a `second` that follows it, wherever the
    /// two stand together (`*/` in a block comment, `?>` in a PHP line comment).
    func separating(_ first: Character, _ second: Character) -> String {
        // Nearly no text has the pair: found by its bytes, it is returned as it is.
        if let a = first.asciiValue, let b = second.asciiValue {
            var previous: UInt8 = 0
            var found = false
            for byte in utf8 {
                if byte == b && previous == a {
                    found = true
                    break
                }
                previous = byte
            }
            if !found { return self }
        }
        var result = ""
        var previous: Character?
        for character in self {
            if character == second && previous == first { result.append(" ") }
            result.append(character)
            previous = character
        }
        return result
    }
}
