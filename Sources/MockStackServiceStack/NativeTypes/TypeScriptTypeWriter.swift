import MockStackCore

/// Writes DTOs as `/types/typescript` does (docs/servicestack.md#generated-dtos): `export enum`,
/// `export interface`, and `export class` with the .NET base (`extends`), the request's
/// `IReturn<T>` / `IReturnVoid` and interfaces (`implements`), camelCase members (`public name?:
/// string;`), a `Partial<T>` constructor, and for requests `createResponse`, `getTypeName`,
/// `getMethod`.
struct TypeScriptTypeWriter {
    let options: NativeTypesOptions
    let types: TypeScriptTypeMap
    /// The flags read for every member, read once.
    private let members: ScriptMemberOptions
    private let annotations = ScriptAnnotations(prefix: "//", isText: { TypeScriptTypeMap.aliases[$0] == "string" })

    init(options: NativeTypesOptions, conflicts: Set<String>) {
        self.options = options
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
        if type.isEnum { return lines + writeEnum(type) }
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
                type.isInterface
                ? (extends.isEmpty ? " extends " : ", ") + interfaces.joined(separator: ", ")
                : " implements " + interfaces.joined(separator: ", ")
        }
        let name = declaredName(type)
        lines += ["export \(type.isInterface ? "interface" : "class") \(name)\(extends)", "{"]
        let modifier = type.isInterface ? "" : "public "
        if operation != nil, let version = options.text("AddImplicitVersion").flatMap({ Int($0) }) {
            lines.append("    \(modifier)version\(type.isInterface ? "?" : ""): number; //\(version)")
        }
        if type.name == "IReturn`1" { lines.append("    createResponse(): T;") }
        if type.name == "IReturnVoid" { lines.append("    createResponse(): void;") }
        lines += properties(
            type, modifier: modifier,
            addingResponseStatus: isResponse && options.flag("AddResponseStatus")
                && !type.properties.contains { $0.name == "ResponseStatus" })
        if !type.isInterface {
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
                // Every request names its method, POST when nothing decides it (as every real file has it).
                let method = operation.sendingMethod(types: layout.typesByName)
                if method.allSatisfy({ $0.isLetter }) { lines.append("    public getMethod() { return '\(method)'; }") }
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

    /// `IReturn<T>` with what `createResponse` returns, or `IReturnVoid` with an empty body.
    private func returnMarker(_ operation: MetadataOperation?) -> (declaration: String, body: String)? {
        guard let operation else { return nil }
        if operation.returnsVoid || operation.request.implements("IReturnVoid") { return ("IReturnVoid", "{}") }
        guard let reference = operation.returnType?.reference ?? operation.request.returnMarkerReference else {
            return nil
        }
        var returned = TypeScriptTypeMap.returnAliases[reference.description] ?? types.name(of: reference).name
        // An index type cannot be constructed or named in a marker: ServiceStack's marker says `any`.
        if returned.hasPrefix("{") { returned = "any" }
        let value: String
        switch returned {
        case "string": value = "''"
        case "number": value = "0"
        case "boolean": value = "false"
        case "any": value = "{}"
        case "Uint8Array": value = "new Uint8Array(0)"
        case _ where returned.hasSuffix("[]"): value = "new Array<\(returned.dropLast(2))>()"
        default: value = "new \(returned)()"
        }
        return ("IReturn<\(returned)>", "{ return \(value); }")
    }

    /// A base: `Array<T>` for a list, `Dictionary<V>` for a dictionary, else its type.
    private func declarationType(_ base: MetadataTypeName) -> String {
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

    private func properties(_ type: MetadataType, modifier: String, addingResponseStatus: Bool) -> [String] {
        var lines: [String] = []
        var marked = false
        for property in type.properties {
            if marked { lines.append("") }
            let (typeName, nullable) = types.name(of: DTOLayout.memberType(property))
            // Optional unless required: marked so (a non-nullable reference of a host that
            // annotates nullability) or a value type that is not `Nullable<T>`.
            let isRequired = property.isRequired
            let optional = members.makesPropertiesOptional || !(isRequired || (property.isValueType && !nullable))
            let dataMember = annotations.dataMember(property.json["dataMember"])
            let attributes = annotations.attributes(property.json["attributes"])
            marked = !dataMember.isEmpty || attributes != nil
            lines += (comment(property.json["description"]) + dataMember + (attributes ?? [])).map { "    " + $0 }
            // A required collection starts empty, and so does every one when asked (`InitializeCollections`).
            let initialises =
                (isRequired || members.initializesCollections)
                && (typeName.hasSuffix("[]") || typeName.hasPrefix("{ [index"))
                && !ScriptText.isAutoQuery(type) && !type.isInterface
            let initializer = initialises ? (typeName.hasPrefix("{") ? " = {}" : " = []") : ""
            lines.append("    \(modifier)\(memberName(property))\(optional ? "?" : ""): \(typeName)\(initializer);")
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines.append("    \(modifier)responseStatus: ResponseStatus;")
        }
        return lines
    }

    /// The JSON name: a data member's own name, else camelCase.
    private func memberName(_ property: MetadataProperty) -> String {
        if case .object(let member)? = property.json["dataMember"], let name = member["name"]?.stringValue {
            return ScriptText.identifier(name)
        }
        return ScriptText.identifier(NameCase.camel(property.name))
    }

    /// `Name` or `Name<T, U>`.
    private func declaredName(_ type: MetadataType) -> String {
        let name = types.alias(TypeReference.stripArity(type.name), arity: type.genericArgs.count)
        let parameters = type.genericArgs.map { ScriptText.identifier(String($0.drop { $0 == "'" })) }
        return parameters.isEmpty ? name : "\(name)<\(parameters.joined(separator: ", "))>"
    }

    /// `/** @description text */` when descriptions are comments, as today's generator writes
    /// them (the 2021 files had `/**`, `* text`, `*/` on three lines).
    private func comment(_ value: JSONValue?) -> [String] {
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
