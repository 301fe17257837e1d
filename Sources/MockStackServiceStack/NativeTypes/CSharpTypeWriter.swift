import MockStackCore

/// Writes one type as `/types/csharp` does (docs/servicestack.md#generated-dtos), without the
/// namespace's indentation: its attributes, then `public enum`, `public partial interface` or
/// `public partial class Name` with its base, return marker and interfaces on the next line
/// (`    : Base, IReturn<T>, IGet`), a constructor when it sets a version or starts collections,
/// and `public virtual Type Name { get; set; }` per member.
struct CSharpTypeWriter {
    /// The options a type's lines depend on, read once per file.
    struct Options {
        /// `MakePartial`, `MakeVirtual`, `MakeInternal`, `MakeDataContractsExtensible`.
        var partial: Bool, virtual: Bool, `internal`: Bool, extensible: Bool
        /// `AddNullableAnnotations`: a member that is neither required nor a value is `T?`.
        var nullableAnnotations: Bool
        /// `AddReturnMarker`: a request without a declared return type names its response.
        var returnMarker: Bool
        /// `AddResponseStatus`, `InitializeCollections`, `AddGeneratedCodeAttributes`.
        var responseStatus: Bool, initializesCollections: Bool, generatedCode: Bool
        /// `AddImplicitVersion`.
        var implicitVersion: Int?
        /// The `Version:` of a `[GeneratedCode]` attribute.
        var version: String

        init(_ options: NativeTypesOptions, version: String) {
            partial = options.flag("MakePartial")
            virtual = options.flag("MakeVirtual")
            `internal` = options.flag("MakeInternal")
            extensible = options.flag("MakeDataContractsExtensible")
            nullableAnnotations = options.flag("AddNullableAnnotations")
            returnMarker = options.flag("AddReturnMarker")
            responseStatus = options.flag("AddResponseStatus")
            initializesCollections = options.flag("InitializeCollections")
            generatedCode = options.flag("AddGeneratedCodeAttributes")
            implicitVersion = options.text("AddImplicitVersion").flatMap { Int($0) }
            self.version = version
        }
    }

    let options: Options
    let types: CSharpTypeMap
    let annotations: DotNetAnnotations
    /// The interfaces a class may name: those the metadata declares and ServiceStack's exported
    /// markers (`IGet`, `IHasSessionId`, `ICreateDb<T>`…); a server-side one is not the client's.
    let interfaces: Set<String>

    /// ``interfaces`` for an app: what its metadata declares, ServiceStack's markers and `IMeta`.
    static func interfaces(in metadata: MetadataTypes) -> Set<String> {
        Set(metadata.types.filter(\.isInterface).map(\.name) + DTOLayout.markerInterfaces.map(\.name) + ["IMeta"])
    }

    /// A type's lines.
    func write(_ entry: DotNetLayout.Entry) -> [String] {
        let type = entry.type
        var lines = annotations.typeLines(entry, generatedCodeVersion: options.generatedCode ? options.version : nil)
        let access = options.internal ? "internal" : "public"
        let name = CSharpTypeMap.type(type.name, type.genericArgs.isEmpty ? nil : type.genericArgs)
        if type.isEnum { return lines + writeEnum(type, access: access, name: name) }

        let kind = type.isInterface ? "interface" : "class"
        lines.append("\(access) \(options.partial ? "partial " : "")\(kind) \(name)")
        var bases: [String] = []
        if let base = type.inherits { bases.append(CSharpTypeMap.type(base, keepsNamespace: true)) }
        if let marker = returnMarker(entry) { bases.append(marker) }
        bases += type.implements.filter { interfaces.contains($0.name) }.map { CSharpTypeMap.type($0) }
        let extensible = options.extensible && type.inherits == nil
        if extensible { bases.append("IExtensibleDataObject") }
        if !bases.isEmpty { lines.append("    : " + bases.joined(separator: ", ")) }
        lines.append("{")
        let body =
            constructor(type, isRequest: entry.operation != nil)
            + members(type, addsResponseStatus: entry.isResponse, extensible: extensible)
        lines += body.map { $0.isEmpty ? $0 : "    " + $0 }
        lines.append("}")
        return lines
    }

    private func writeEnum(_ type: MetadataType, access: String, name: String) -> [String] {
        var lines = ["\(access) enum \(name)", "{"]
        let memberValues = type.json["enumMemberValues"]?.arrayValue?.map(\.stringValue) ?? []
        for (index, member) in type.enumNames.enumerated() {
            if memberValues.indices.contains(index), let value = memberValues[index] {
                lines.append("    " + annotations.enumMember(value))
            }
            let identifier = ScriptText.identifier(member)
            if type.enumValues.indices.contains(index), let value = Int(type.enumValues[index]) {
                lines.append("    \(identifier) = \(value),")
            } else {
                lines.append("    \(identifier),")
            }
        }
        return lines + ["}"]
    }

    /// `IReturnVoid`, `IReturn<T>` for a declared return type, else (with `AddReturnMarker`)
    /// `IReturn<Response>`.
    private func returnMarker(_ entry: DotNetLayout.Entry) -> String? {
        guard let operation = entry.operation else { return nil }
        if operation.returnsVoid { return "IReturnVoid" }
        if let returned = operation.returnType {
            return "IReturn<\(CSharpTypeMap.alias(CSharpTypeMap.type(returned)))>"
        }
        guard options.returnMarker, let response = operation.response else { return nil }
        let name = CSharpTypeMap.type(response.name, response.genericArgs.isEmpty ? nil : response.genericArgs)
        return "IReturn<\(CSharpTypeMap.alias(name))>"
    }

    /// `public Name()` setting the request's `Version` and starting each collection, with the
    /// `Version` member before it; nothing when neither applies.
    private func constructor(_ type: MetadataType, isRequest: Bool) -> [String] {
        guard !type.isInterface else { return [] }
        let collections =
            options.initializesCollections && Self.initializesCollections(of: type)
            ? type.properties.filter(CSharpTypeMap.isCollection) : []
        let version = isRequest ? options.implicitVersion : nil
        guard version != nil || !collections.isEmpty else { return [] }
        var lines: [String] = []
        if version != nil { lines += ["public \(options.virtual ? "virtual " : "")int Version { get; set; }", ""] }
        lines += ["public \(CSharpTypeMap.nameOnly(type.name))()", "{"]
        if let version { lines.append("    Version = \(version);") }
        for property in collections {
            let declared = types.declaredName(property)
            let created = CSharpTypeMap.type(
                declared, property.genericArgs, keepsNamespace: true)
            lines.append("    \(ScriptText.identifier(property.name)) = new \(created){};")
        }
        return lines + ["}", ""]
    }

    /// Whether a type's collections start empty: not in an AutoQuery or AutoCrud request, whose
    /// unset members must stay unset.
    static func initializesCollections(of type: MetadataType) -> Bool {
        let isQuery = type.inherits.map { ["QueryDb`1", "QueryDb`2", "QueryData`1", "QueryData`2"].contains($0.name) }
        let isCrud = type.implements.contains {
            ["ICreateDb`1", "IUpdateDb`1", "IPatchDb`1", "IDeleteDb`1", "ISaveDb`1"].contains($0.name)
        }
        return !(isQuery ?? false) && !isCrud
    }

    /// The members, a marked one (attributes, a data member) followed by a blank line; then a
    /// response's `ResponseStatus` and an extensible class's `ExtensionData` when asked for.
    private func members(_ type: MetadataType, addsResponseStatus: Bool, extensible: Bool) -> [String] {
        let modifier = type.isInterface ? "" : "public " + (options.virtual ? "virtual " : "")
        return annotations.memberBlock(
            type,
            declaration: { property in
                var typeName = types.memberType(property)
                if options.nullableAnnotations, !property.isRequired, !property.isValueType, !typeName.hasSuffix("?") {
                    typeName += "?"
                }
                return "\(modifier)\(typeName) \(ScriptText.identifier(property.name)) { get; set; }"
            },
            responseStatus: addsResponseStatus && options.responseStatus
                ? "\(modifier)ResponseStatus ResponseStatus { get; set; }" : nil,
            extensionData: extensible ? "\(modifier)ExtensionDataObject ExtensionData { get; set; }" : nil)
    }
}
