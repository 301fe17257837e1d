import MockStackCore

/// Writes DTOs as `/types/java` does (docs/servicestack.md#generated-dtos): each a `public static`
/// enum, interface or class nested in the file's class, with Java annotations for routes,
/// attributes and the data contract, `public T name = null;` fields, and under
/// `AddPropertyAccessors` a getter and setter per field. A request names its response in
/// `IReturn<T>` and `getResponseType()`.
struct JavaTypeWriter {
    let types: JVMTypeMap
    let annotations: JVMAnnotations
    /// The interfaces a type may name (``JVMDeclarations/interfaces(of:)``).
    let interfaces: Set<String>
    /// The flags read for every type and member, read once.
    private let addsAccessors: Bool
    private let settersReturnThis: Bool
    private let addsResponseStatus: Bool
    private let addsReturnMarker: Bool
    private let implicitVersion: Int?

    init(options: NativeTypesOptions, interfaces: Set<String>, conflicts: Set<String>) {
        self.interfaces = interfaces
        types = JVMTypeMap(language: .java, conflicts: conflicts, strings: Set(options.list("TreatTypesAsStrings")))
        annotations = JVMAnnotations(options: options, classLiteral: ".class")
        addsAccessors = options.flag("AddPropertyAccessors")
        settersReturnThis = options.flag("SettersReturnThis")
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
        var lines = annotations.typeLines(type, routes: operation?.routes ?? [])
        let name = types.declaredName(type)
        if type.isEnum { return (lines + writeEnum(type, name: name)).map { $0.isEmpty ? $0 : "    " + $0 } }

        var heading = "public static \(type.isInterface ? "interface" : "class") \(name)"
        if let base = type.inherits { heading += " extends " + types.name(of: base.reference) }
        let marker = types.returnMarker(for: operation, addsReturnMarker: addsReturnMarker)
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
                returned.containsMark("<") ? "new TypeToken<\(returned)>(){}.getType()" : "\(returned).class"
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
            let member = annotations.member(property, index: index, keywords: Self.keywords)
            index += 1
            marked = member.isMarked
            lines += member.lines
            lines.append(member.serializedName + "public \(typeName) \(member.field) = null;")
            if accessors { accessorLines += accessor(type: typeName, field: member.field, setterReturn: setterReturn) }
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines += annotations.dataMember(nil, index: index)
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
}

extension DTOLayout.Entry {
    var isResponse: Bool {
        if case .response = role { return true }
        return false
    }
}
