import MockStackCore

/// Writes DTOs as `/types/kotlin` does (docs/servicestack.md#generated-dtos): `enum class`es (with
/// `(val value:Int)` when the members have values), interfaces, and `open class`es with the .NET
/// base (`: Base()`) and interfaces, annotations for routes, attributes and the data contract,
/// `open var name:Type? = null` members (`override` where a base class or an interface the type
/// implements declares them), and on a request `IReturn<T>` with a `companion object` holding the
/// response type.
struct KotlinTypeWriter {
    let types: JVMTypeMap
    let annotations: JVMAnnotations
    /// The interfaces a type may name (``JVMDeclarations/interfaces(of:)``).
    let interfaces: Set<String>
    /// The metadata's types by name, to find what a base class or an interface declares.
    let declared: [String: MetadataType]
    /// The flags read for every type and member, read once.
    private let initializesCollections: Bool
    private let addsResponseStatus: Bool
    private let addsReturnMarker: Bool
    private let implicitVersion: Int?

    init(options: NativeTypesOptions, metadata: MetadataTypes, interfaces: Set<String>, conflicts: Set<String>) {
        self.interfaces = interfaces
        types = JVMTypeMap(language: .kotlin, conflicts: conflicts, strings: Set(options.list("TreatTypesAsStrings")))
        annotations = JVMAnnotations(options: options, classLiteral: "::class")
        var declared: [String: MetadataType] = [:]
        for type in metadata.types where declared[type.name] == nil { declared[type.name] = type }
        self.declared = declared
        initializesCollections = options.flag("InitializeCollections")
        addsResponseStatus = options.flag("AddResponseStatus")
        addsReturnMarker = options.flag("AddReturnMarker")
        implicitVersion = options.text("AddImplicitVersion").flatMap { Int($0) }
    }

    /// Java's reserved words and Kotlin's own: a member named by one is capitalised (`Int`), and
    /// Gson is told its JSON name.
    static let keywords: Set<String> = JavaTypeWriter.keywords.union([
        "annotation", "as", "by", "companion", "const", "constructor", "crossinline", "data", "dynamic", "external",
        "fun", "get", "in", "inner", "internal", "infix", "inline", "is", "lateinit", "noinline", "object", "open",
        "operator", "out", "reified", "set", "sealed", "tailrec", "trait", "type", "val", "var", "vararg", "when",
        "where",
    ])

    /// The declaration's lines, without the blank line before it.
    func write(_ entry: DTOLayout.Entry) -> [String] {
        let type = entry.type
        var operation: MetadataOperation?
        if case .request(let op) = entry.role { operation = op }
        var lines = annotations.typeLines(type, routes: operation?.routes ?? [])
        let name = types.declaredName(type)
        if type.isEnum { return lines + writeEnum(type, name: name) }

        var supertypes: [String] = []
        if let base = type.inherits { supertypes.append(types.name(of: base.reference) + "()") }
        let marker = types.returnMarker(for: operation, addsReturnMarker: addsReturnMarker)
        if let marker { supertypes.append(marker) }
        supertypes += type.implements.filter { interfaces.contains($0.name) }.map { types.name(of: $0.reference) }
        let heading = "\(type.isInterface ? "interface" : "open class") \(name)"
        lines += [heading + (supertypes.isEmpty ? "" : " : " + supertypes.joined(separator: ", ")), "{"]

        var body: [String] = []
        if operation != nil, let implicitVersion { body.append("val version:Int = \(implicitVersion)") }
        body += members(
            type,
            addingResponseStatus: entry.isResponse && addsResponseStatus
                && !type.properties.contains { $0.name == "ResponseStatus" })
        if let marker, marker.hasPrefix("IReturn<") {
            let returned = String(marker.dropFirst("IReturn<".count).dropLast())
            // A generic type has no class literal: Gson's TypeToken carries its arguments.
            let expression =
                returned.containsMark("<") ? "object : TypeToken<\(returned)>(){}.type" : "\(returned)::class.java"
            body += [
                "companion object { private val responseType = \(expression) }",
                "override fun getResponseType(): Any? = \(name).responseType",
            ]
        }
        return lines + body.map { $0.isEmpty ? $0 : "    " + $0 } + ["}"]
    }

    /// Members in PascalCase, each followed by a comma; with a value for every member, the
    /// class takes it (`(val value:Int)`), and under `[Flags]` Gson reads and writes it.
    private func writeEnum(_ type: MetadataType, name: String) -> [String] {
        let names = type.enumNames
        let values = names.count == type.enumValues.count ? type.enumValues.compactMap { Int($0) } : []
        let hasValues = !names.isEmpty && values.count == names.count
        let isFlags = type.json["attributes"]?.arrayValue?.contains { $0["name"]?.stringValue == "Flags" } ?? false
        var lines = ["enum class \(name)\(hasValues ? "(val value:Int)" : "")", "{"]
        for (index, member) in names.enumerated() {
            let identifier = ScriptText.identifier(NameCase.pascal(member))
            if hasValues {
                let value = values[index]
                lines.append("    " + (isFlags ? "@SerializedName(\"\(value)\") " : "") + "\(identifier)(\(value)),")
            } else {
                lines.append("    \(identifier),")
            }
        }
        return lines + ["}"]
    }

    /// The members, a blank line after each one that carried annotations.
    private func members(_ type: MetadataType, addingResponseStatus: Bool) -> [String] {
        let inherited = inheritedMembers(of: type)
        let initialises = initializesCollections && !type.isInterface && !Self.isAutoQuery(type)
        let initializer = type.isInterface ? "" : " = null"
        var lines: [String] = []
        var marked = false
        var index = 1
        for property in type.properties {
            if marked { lines.append("") }
            let typeName = types.name(of: DTOLayout.memberType(property))
            let member = annotations.member(property, index: index, keywords: Self.keywords)
            index += 1
            marked = member.isMarked
            lines += member.lines
            let modifier = inherited.contains(property.name) ? "override " : type.isInterface ? "" : "open "
            let declaration =
                initialises && Self.isCollection(property)
                ? "\(modifier)var \(member.field):\(typeName) = \(typeName)()"
                : "\(modifier)var \(member.field):\(typeName)?\(initializer)"
            lines.append(member.serializedName + declaration)
        }
        if addingResponseStatus {
            if marked { lines.append("") }
            lines += annotations.dataMember(nil, index: index)
            lines.append("var responseStatus:ResponseStatus?\(initializer)")
        }
        return lines
    }

    /// What the type's direct base class (with the bases above it) and the interfaces it
    /// implements outside ServiceStack's own declare: a member of the same name overrides it.
    private func inheritedMembers(of type: MetadataType) -> Set<String> {
        var names: Set<String> = []
        for implemented in type.implements where !(implemented.namespace ?? "").hasPrefix("ServiceStack") {
            names.formUnion(declared[implemented.name]?.properties.map(\.name) ?? [])
        }
        var base = type.inherits.flatMap { declared[$0.name] }
        var depth = 0
        while let current = base, depth < 64 {
            names.formUnion(current.properties.map(\.name))
            base = current.inherits.flatMap { declared[$0.name] }
            depth += 1
        }
        return names
    }

    /// A generic list or dictionary member, which `InitializeCollections` starts empty.
    private static func isCollection(_ property: MetadataProperty) -> Bool {
        guard case .named(let name, let arguments) = property.type, !arguments.isEmpty else { return false }
        return JVMTypeMap.sequences.contains(name) || JVMTypeMap.dictionaries.contains(name)
    }

    /// An AutoQuery or AutoCrud request, whose unset filters stay unset.
    private static func isAutoQuery(_ type: MetadataType) -> Bool {
        let crud = ["ICreateDb`1", "IUpdateDb`1", "IPatchDb`1", "IDeleteDb`1", "ISaveDb`1"]
        return ScriptText.isAutoQuery(type) || type.implements.contains { crud.contains($0.name) }
    }
}
