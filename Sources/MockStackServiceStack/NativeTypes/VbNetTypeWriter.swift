import MockStackCore

/// Writes one type as `/types/vbnet` does (docs/servicestack.md#generated-dtos), without the
/// namespaces' indentation: its attributes, then `Public Enum Name` … `End Enum`, or
/// `Public Partial Class Name` (`Public Interface Name`) with `    Inherits Base` and an
/// `    Implements …` line per return marker and interface, a `Public Sub New()` when it sets a
/// version or starts collections, `Public Overridable Property Name As Type` per member, and
/// `End Class`.
struct VbNetTypeWriter {
    /// The options a type's lines depend on, read once per file: C#'s, of which VB.NET reads
    /// all but `MakeInternal` and `AddNullableAnnotations`.
    let options: CSharpTypeWriter.Options
    let types: CSharpTypeMap
    let annotations: DotNetAnnotations
    /// The interfaces a class may name (see ``CSharpTypeWriter/interfaces``).
    let interfaces: Set<String>

    /// A type's lines.
    func write(_ entry: DotNetLayout.Entry) -> [String] {
        let type = entry.type
        var lines = annotations.typeLines(entry, generatedCodeVersion: options.generatedCode ? options.version : nil)
        let name = VbNetTypeMap.type(type.name, type.genericArgs.isEmpty ? nil : type.genericArgs)
        if type.isEnum { return lines + writeEnum(type, name: name) }

        let partial = options.partial && !type.isInterface ? "Partial " : ""
        lines.append("Public \(partial)\(type.isInterface ? "Interface" : "Class") \(name)")
        if let base = type.inherits { lines.append("    Inherits \(VbNetTypeMap.type(base, keepsNamespace: true))") }
        var implements: [String] = []
        if let marker = returnMarker(entry) { implements.append(marker) }
        implements += type.implements.filter { interfaces.contains($0.name) }.map { VbNetTypeMap.type($0) }
        let extensible = options.extensible && type.inherits == nil
        if extensible { implements.append("IExtensibleDataObject") }
        lines += implements.map { "    Implements \($0)" }
        let body =
            constructor(type, isRequest: entry.operation != nil)
            + members(type, addsResponseStatus: entry.isResponse, extensible: extensible)
        lines += body.map { $0.isEmpty ? $0 : "    " + $0 }
        lines.append(type.isInterface ? "End Interface" : "End Class")
        return lines
    }

    /// `Public Enum Name`, a member per line (`Name = value`, after its `<EnumMember>`), `End Enum`.
    private func writeEnum(_ type: MetadataType, name: String) -> [String] {
        var lines = ["Public Enum \(name)"]
        let memberValues = type.json["enumMemberValues"]?.arrayValue?.map(\.stringValue) ?? []
        for (index, member) in type.enumNames.enumerated() {
            if memberValues.indices.contains(index), let value = memberValues[index] {
                lines.append("    " + annotations.enumMember(value))
            }
            let identifier = VbNetTypeMap.name(member)
            if type.enumValues.indices.contains(index) {
                // A value is a number: anything else the metadata sent is left out of the code.
                lines.append("    \(identifier) = \(type.enumValues[index].filter { $0.isNumber || $0 == "-" })")
            } else {
                lines.append("    \(identifier)")
            }
        }
        return lines + ["End Enum"]
    }

    /// `IReturnVoid`, `IReturn(Of T)` for a declared return type, else (with `AddReturnMarker`)
    /// `IReturn(Of Response)`.
    private func returnMarker(_ entry: DotNetLayout.Entry) -> String? {
        guard let operation = entry.operation else { return nil }
        if operation.returnsVoid { return "IReturnVoid" }
        if let returned = operation.returnType {
            return VbNetTypeMap.type("IReturn`1", [VbNetTypeMap.type(returned)])
        }
        guard options.returnMarker, let response = operation.response else { return nil }
        let name = VbNetTypeMap.type(response.name, response.genericArgs.isEmpty ? nil : response.genericArgs)
        return VbNetTypeMap.type("IReturn`1", [name])
    }

    /// `Public Sub New()` setting the request's `Version` and starting each collection, with the
    /// `Version` member before it; nothing when neither applies.
    private func constructor(_ type: MetadataType, isRequest: Bool) -> [String] {
        guard !type.isInterface else { return [] }
        let collections =
            options.initializesCollections && CSharpTypeWriter.initializesCollections(of: type)
            ? type.properties.filter(CSharpTypeMap.isCollection) : []
        let version = isRequest ? options.implicitVersion : nil
        guard version != nil || !collections.isEmpty else { return [] }
        var lines: [String] = []
        if version != nil {
            lines += ["Public \(options.virtual ? "Overridable " : "")Property Version As Integer", ""]
        }
        lines.append("Public Sub New()")
        if let version { lines.append("    Version = \(version)") }
        for property in collections {
            let declared = property.typeName
            let created = VbNetTypeMap.type(
                declared, property.genericArgs, keepsNamespace: true)
            let suffix = declared.containsMark("[") ? "{}" : ""
            lines.append("    \(VbNetTypeMap.name(property.name)) = New \(created)\(suffix)")
        }
        return lines + ["End Sub", ""]
    }

    /// The members, a marked one (attributes, a data member, a `<Description>`) followed by a
    /// blank line; then a response's `ResponseStatus` and an extensible class's `ExtensionData`
    /// when asked for.
    private static let extensionDataImplements = "Implements IExtensibleDataObject.ExtensionData"

    private func members(_ type: MetadataType, addsResponseStatus: Bool, extensible: Bool) -> [String] {
        let modifier = type.isInterface ? "" : "Public " + (options.virtual ? "Overridable " : "")
        return annotations.memberBlock(
            type,
            declaration: { property in
                let typeName = VbNetTypeMap.type(
                    types.declaredName(property), property.genericArgs, keepsNamespace: true)
                return "\(modifier)Property \(VbNetTypeMap.name(property.name)) As \(typeName)"
            },
            responseStatus: addsResponseStatus && options.responseStatus
                ? "\(modifier)Property ResponseStatus As ResponseStatus" : nil,
            extensionData: extensible
                ? "\(modifier)Property ExtensionData As ExtensionDataObject \(Self.extensionDataImplements)" : nil,
            // ServiceStack counts the status as marking only when it has a data member.
            statusAlwaysMarks: false)
    }
}
