import MockStackCore

/// Writes DTOs as `/types/java` does (docs/servicestack.md#generated-dtos): each a `public static`
/// enum, interface or class nested in the file's class, with Java annotations for routes,
/// attributes and the data contract, `public T name = null;` fields, and under
/// `AddPropertyAccessors` a getter and setter per field. A request names its response in
/// `IReturn<T>` and `getResponseType()`.
struct JavaTypeWriter {
    let types: JavaTypeMap
    /// The interfaces a type may name: those the metadata declares and ServiceStack's markers
    /// (never the return markers, which the request's response decides, nor server-side ones
    /// such as `IRequiresRequestStream`).
    let interfaces: Set<String>
    /// The flags read for every type and member, read once.
    private let describes: Bool
    private let addsAccessors: Bool
    private let settersReturnThis: Bool
    private let addsDataContracts: Bool
    private let indexesDataMembers: Bool
    private let addsResponseStatus: Bool
    private let addsReturnMarker: Bool
    private let implicitVersion: Int?

    init(options: NativeTypesOptions, interfaces: Set<String>, conflicts: Set<String>) {
        self.interfaces = interfaces
        types = JavaTypeMap(conflicts: conflicts, strings: Set(options.list("TreatTypesAsStrings")))
        describes = options.flag("AddDescriptionAsComments")
        addsAccessors = options.flag("AddPropertyAccessors")
        settersReturnThis = options.flag("SettersReturnThis")
        addsDataContracts = options.flag("AddDataContractAttributes")
        indexesDataMembers = options.flag("AddIndexesToDataMembers")
        addsResponseStatus = options.flag("AddResponseStatus")
        addsReturnMarker = options.flag("AddReturnMarker")
        implicitVersion = options.text("AddImplicitVersion").flatMap { Int($0) }
    }

    /// Java's reserved words: a field named by one is capitalised (`Int`), and Gson is told its
    /// JSON name.
    static let keywords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "continue", "default", "do",
        "double", "else", "enum", "extends", "final", "finally", "float", "for", "if", "implements", "import",
        "instanceof", "int", "interface", "long", "native", "new", "package", "private", "protected", "public",
        "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws",
        "transient", "try", "void", "volatile", "while",
    ]

    /// The declaration's lines, indented for the file's class, without the blank line before it.
    func write(_ entry: DTOLayout.Entry) -> [String] {
        let type = entry.type
        var operation: MetadataOperation?
        if case .request(let op) = entry.role { operation = op }
        var lines = comment(type.json["description"])
        lines += annotations(routes(operation?.routes ?? []))
        lines += annotations(type.json["attributes"]?.arrayValue ?? [])
        lines += dataContract(type.json["dataContract"])
        let name = declaredName(type)
        if type.isEnum { return (lines + writeEnum(type, name: name)).map { $0.isEmpty ? $0 : "    " + $0 } }

        var heading = "public static \(type.isInterface ? "interface" : "class") \(name)"
        if let base = type.inherits { heading += " extends " + types.name(of: base.reference) }
        let marker = returnMarker(operation)
        let implemented =
            (marker.map { [$0] } ?? [])
            + type.implements.filter { interfaces.contains($0.name) }.map { types.name(of: $0.reference) }
        if !implemented.isEmpty { heading += " implements " + implemented.joined(separator: ", ") }
        lines += [heading, "{"]

        let accessors = addsAccessors && !type.isInterface
        let setterReturn = accessors && settersReturnThis ? name : nil
        var body: [String] = []
        if operation != nil, let implicitVersion {
            body.append("public Integer version = \(implicitVersion);")
            if accessors { body += accessor(type: "Integer", field: "version", setterReturn: setterReturn) }
        }
        let members = fields(
            type, accessors: accessors, setterReturn: setterReturn,
            addingResponseStatus: entry.isResponse && addsResponseStatus
                && !type.properties.contains { $0.name == "ResponseStatus" })
        body += members.fields
        if let accessorLines = members.accessors {
            // ServiceStack joins the accessors as one block that begins with a line break, so
            // the line before them holds the indentation alone.
            body.append(Self.indentation)
            body += accessorLines
        }
        if let marker, marker.hasPrefix("IReturn<") {
            let returned = String(marker.dropFirst("IReturn<".count).dropLast())
            // A generic type has no `.class`: Gson's TypeToken carries its arguments.
            let expression =
                returned.contains("<") ? "new TypeToken<\(returned)>(){}.getType()" : "\(returned).class"
            body += [
                "private static Object responseType = \(expression);",
                "public Object getResponseType() { return responseType; }",
            ]
        }
        lines += body.map { $0.isEmpty || $0 == Self.indentation ? $0 : "    " + $0 }
        lines.append("}")
        return lines.map { $0.isEmpty ? $0 : "    " + $0 }
    }

    /// What a body line holding nothing but its indentation is written as, before indenting.
    private static let indentation = "    "

    // MARK: Enums

    /// Members in PascalCase; with values, each `Name(value)` and the `value` field that holds
    /// it, and under `[Flags]` the value Gson reads and writes (`@SerializedName("4")`).
    private func writeEnum(_ type: MetadataType, name: String) -> [String] {
        var lines = ["public static enum \(name)", "{"]
        let isFlags = type.json["attributes"]?.arrayValue?.contains { $0["name"]?.stringValue == "Flags" } ?? false
        let names = type.enumNames
        var hasValues = false
        for (index, member) in names.enumerated() {
            let end = index == names.count - 1 ? ";" : ","
            let identifier = ScriptText.identifier(NameCase.pascal(member))
            if type.enumValues.indices.contains(index), let value = Int(type.enumValues[index]) {
                hasValues = true
                lines.append(
                    "    " + (isFlags ? "@SerializedName(\"\(value)\") " : "") + "\(identifier)(\(value))\(end)")
            } else {
                lines.append("    \(identifier)\(end)")
            }
        }
        if hasValues {
            lines += [
                "",
                "    private final int value;",
                "    \(name)(final int intValue) { value = intValue; }",
                "    public int getValue() { return value; }",
            ]
        }
        return lines + ["}"]
    }

    // MARK: Members

    /// The fields, a blank line after each field that carried annotations, and under
    /// `AddPropertyAccessors` their accessors.
    private func fields(
        _ type: MetadataType, accessors: Bool, setterReturn: String?, addingResponseStatus: Bool
    ) -> (fields: [String], accessors: [String]?) {
        var lines: [String] = []
        var accessorLines: [String] = []
        var marked = false
        var index = 1
        for property in type.properties {
            if marked { lines.append("") }
            let typeName = types.name(of: DTOLayout.memberType(property))
            lines += comment(property.json["description"])
            let member = dataMember(property.json["dataMember"], index: index)
            index += 1
            let attributes = annotations(property.json["attributes"]?.arrayValue ?? [])
            marked = !member.isEmpty || !attributes.isEmpty
            lines += member + attributes
            let jsonName = NameCase.camel(ScriptText.identifier(property.name))
            let field = Self.fieldName(property.name)
            let hasDataMemberName = property.json["dataMember"]?["name"]?.stringValue != nil
            lines.append(
                (field == jsonName || hasDataMemberName ? "" : "@SerializedName(\"\(jsonName)\") ")
                    + "public \(typeName) \(field) = null;")
            if accessors { accessorLines += accessor(type: typeName, field: field, setterReturn: setterReturn) }
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines += dataMember(nil, index: index)
            lines.append("public ResponseStatus responseStatus = null;")
            if accessors {
                accessorLines += accessor(type: "ResponseStatus", field: "responseStatus", setterReturn: setterReturn)
            }
        }
        return (lines, accessors ? accessorLines : nil)
    }

    /// `getName()` (`isName()` for a `Boolean`) and `setName(value)`, returning the object when
    /// `SettersReturnThis` says so.
    private func accessor(type: String, field: String, setterReturn: String?) -> [String] {
        let accessorName = NameCase.pascal(field)
        let getter =
            type.lowercased().hasPrefix("bool") && !accessorName.lowercased().hasPrefix("is") ? "is" : "get"
        let setter =
            setterReturn.map {
                "public \($0) set\(accessorName)(\(type) value) { this.\(field) = value; return this; }"
            }
            ?? "public void set\(accessorName)(\(type) value) { this.\(field) = value; }"
        return ["public \(type) \(getter)\(accessorName)() { return \(field); }", setter]
    }

    /// The camelCase name, capitalised where it is a reserved word (`Int`).
    static func fieldName(_ name: String) -> String {
        let field = NameCase.camel(ScriptText.identifier(name))
        guard keywords.contains(field), let first = field.first else { return field }
        return first.uppercased() + field.dropFirst()
    }

    // MARK: Annotations

    /// A `@Route` per route: the path alone, or path and verbs by name.
    private func routes(_ routes: [MetadataRoute]) -> [JSONValue] {
        routes.map { route in
            let path: JSONValue = ["name": "Path", "type": "String", "value": .string(route.path)]
            guard !route.verbs.isEmpty else { return ["name": "Route", "constructorArgs": [path]] }
            let verbs: JSONValue = [
                "name": "Verbs", "type": "String", "value": .string(route.verbs.joined(separator: ",")),
            ]
            return ["name": "Route", "args": [path, verbs]]
        }
    }

    /// One annotation per attribute, its arguments by name. Java allows an annotation once, so
    /// a repeat is written as a comment, and so is one with several constructor arguments.
    private func annotations(_ attributes: [JSONValue]) -> [String] {
        var seen: Set<String> = []
        return attributes.compactMap { attribute in
            guard let name = attribute["name"]?.stringValue, SwiftAnnotations.isExported(name) || name == "Route"
            else { return nil }
            var prefix = seen.insert(name).inserted ? "" : "// "
            let positional = attribute["constructorArgs"]?.arrayValue ?? []
            let named = attribute["args"]?.arrayValue ?? []
            if positional.count > 1 { prefix = "// " }
            let arguments = (positional.isEmpty ? named : positional).map { argument in
                let name = Self.argumentName(argument["name"]?.stringValue ?? "", positional: !positional.isEmpty)
                return "\(name)=\(value(argument))"
            }
            return "\(prefix)@\(ScriptText.identifier(name))(\(arguments.joined(separator: ", ")))"
        }
    }

    /// A constructor argument is named by the attribute's property of that name, which .NET
    /// capitalises (`maximumLength` → `MaximumLength`); an unnamed one (`arg0`) keeps its name.
    private static func argumentName(_ name: String, positional: Bool) -> String {
        let name = ScriptText.identifier(name)
        guard positional, !(name.hasPrefix("arg") && name.dropFirst(3).allSatisfy(\.isNumber)), let first = name.first
        else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// Text quoted, `typeof(T)` as `T.class`, anything else as written (kept to a literal).
    private func value(_ argument: JSONValue) -> String {
        guard let value = argument["value"]?.stringValue else { return "null" }
        let type = argument["type"]?.stringValue ?? "String"
        if type == "String" || type == "string" { return JavaText.literal(value) }
        if value.hasPrefix("typeof("), value.hasSuffix(")") {
            let name = value.dropFirst("typeof(".count).dropLast().split(separator: ".").last.map(String.init) ?? ""
            return ScriptText.identifier(name) + ".class"
        }
        // Numbers, booleans and enum members; anything else would be code, so it is quoted.
        let isLiteral = value.allSatisfy { $0.isLetter || $0.isNumber || "._-+".contains($0) }
        return isLiteral ? value : JavaText.literal(value)
    }

    /// `@DataContract`, with its name and namespace when it has them; `@DataContract()` on every
    /// type under `AddDataContractAttributes`.
    private func dataContract(_ value: JSONValue?) -> [String] {
        guard case .object(let contract)? = value else { return addsDataContracts ? ["@DataContract()"] : [] }
        var arguments: [String] = []
        if let name = contract["name"]?.stringValue { arguments.append("Name=\(JavaText.literal(name))") }
        if let namespace = contract["namespace"]?.stringValue {
            arguments.append("Namespace=\(JavaText.literal(namespace))")
        }
        return ["@DataContract" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")]
    }

    /// `@DataMember(…)` and, for a renamed member, the name Gson reads (`@SerializedName`).
    private func dataMember(_ value: JSONValue?, index: Int) -> [String] {
        guard case .object(let member)? = value else {
            guard addsDataContracts else { return [] }
            return [indexesDataMembers ? "@DataMember(Order=\(index))" : "@DataMember()"]
        }
        var arguments: [String] = []
        let name = member["name"]?.stringValue
        if let name { arguments.append("Name=\(JavaText.literal(name))") }
        if let order = member["order"]?.intValue {
            arguments.append("Order=\(order)")
        } else if indexesDataMembers {
            arguments.append("Order=\(index)")
        }
        if let required = member["isRequired"]?.boolValue { arguments.append("IsRequired=\(required)") }
        if let emits = member["emitDefaultValue"]?.boolValue { arguments.append("EmitDefaultValue=\(emits)") }
        var lines = ["@DataMember" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")]
        if let name { lines.append("@SerializedName(\(JavaText.literal(name)))") }
        return lines
    }

    /// `/**`, `* text`, `*/` when descriptions are comments.
    private func comment(_ value: JSONValue?) -> [String] {
        guard describes, let text = value?.stringValue else { return [] }
        return ["/**", "* \(JavaText.comment(text))", "*/"]
    }

    // MARK: Names

    /// `IReturnVoid`, or `IReturn<T>` with the operation's return type (or its response, under
    /// `AddReturnMarker`); nil for a type that is no request. The type is spelled as a member's
    /// and then read again as a type argument, as ServiceStack spells it.
    private func returnMarker(_ operation: MetadataOperation?) -> String? {
        guard let operation else { return nil }
        if operation.returnsVoid { return "IReturnVoid" }
        let returned: TypeReference
        if let returnType = operation.returnType {
            returned = returnType.reference
        } else if addsReturnMarker, let response = operation.response {
            returned = TypeReference(type: response.name, genericArgs: response.genericArgs)
        } else {
            return nil
        }
        return "IReturn<\(types.argument(TypeReference(parsing: types.name(of: returned))))>"
    }

    /// `Name` or `Name<T, U>`.
    private func declaredName(_ type: MetadataType) -> String {
        let parameters = type.genericArgs.map { types.argument(TypeReference(parsing: String($0.drop { $0 == "'" }))) }
        let name = types.alias(TypeReference.stripArity(type.name), arity: parameters.count)
        return parameters.isEmpty ? name : "\(name)<\(parameters.joined(separator: ", "))>"
    }
}

extension DTOLayout.Entry {
    var isResponse: Bool {
        if case .response = role { return true }
        return false
    }
}
