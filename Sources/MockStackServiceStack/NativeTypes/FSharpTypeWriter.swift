import MockStackCore

/// Writes one type as `/types/fsharp` does (docs/servicestack.md#generated-dtos), without the
/// namespace's indentation: its attributes, then an enum as `type Name =` with `| Member = value`
/// lines, or `[<AllowNullLiteral>]` and `type Name() = ` (an interface without `()`) with its
/// base (`inherit Base()`), return marker and marker interfaces as `interface …` lines, and a
/// `member val Name:Type = default with get,set` per member (`abstract Name:Type with get,set`
/// in an interface); `class end` or `interface end` when there is nothing else to say.
struct FSharpTypeWriter {
    /// The only interfaces an F# class names besides its return marker: ServiceStack's empty
    /// markers, which need no members.
    static let markerInterfaces: Set<String> = ["IGet", "IPost", "IPut", "IDelete", "IPatch", "IOptions", "IStream"]

    /// The options a type's lines depend on, read as for C# (F# leaves `MakePartial`,
    /// `MakeVirtual`, `MakeInternal` and `AddNullableAnnotations` alone).
    let options: CSharpTypeWriter.Options
    let types: CSharpTypeMap
    let annotations: DotNetAnnotations

    /// A type's lines.
    func write(_ entry: DotNetLayout.Entry) -> [String] {
        let type = entry.type
        var lines = annotations.typeLines(entry, generatedCodeVersion: options.generatedCode ? options.version : nil)
        let name = FSharpTypeMap.type(type.name, type.genericArgs.isEmpty ? nil : type.genericArgs)
        if type.isEnum { return lines + writeEnum(type, name: name) }

        lines += ["[<AllowNullLiteral>]", "type \(name)\(type.isInterface ? "" : "()") = "]
        var body: [String] = []
        if let base = type.inherits { body.append("inherit \(FSharpTypeMap.type(base))()") }
        if let marker = returnMarker(entry) { body.append("interface \(marker)") }
        let extensible = options.extensible && type.inherits == nil
        if !type.isInterface {
            if extensible {
                body += [
                    "interface IExtensibleDataObject with",
                    "    member val ExtensionData:ExtensionDataObject = null with get, set", "end",
                ]
            }
            if entry.operation != nil, let version = options.implicitVersion {
                body.append("member val Version:int = \(version) with get, set")
            }
            body += type.implements.filter { Self.markerInterfaces.contains($0.name) }.map { "interface \($0.name)" }
        }
        body += members(type, addsResponseStatus: entry.isResponse, extensible: extensible)
        if body.isEmpty { body.append(type.isInterface ? "interface end" : "class end") }
        return lines + body.map { $0.isEmpty ? $0 : "    " + $0 }
    }

    /// `type Name =` and `| Member = value` per member (its position when the metadata gives no value).
    private func writeEnum(_ type: MetadataType, name: String) -> [String] {
        var lines = ["type \(name) ="]
        for (index, member) in type.enumNames.enumerated() {
            // A value is a number: anything else the metadata sent is left out of the code.
            let value =
                type.enumValues.indices.contains(index)
                ? type.enumValues[index].filter { $0.isNumber || $0 == "-" } : String(index)
            lines.append("    | \(ScriptText.identifier(member)) = \(value)")
        }
        return lines
    }

    /// `IReturnVoid`, `IReturn<T>` for a declared return type, else (with `AddReturnMarker`)
    /// `IReturn<Response>`.
    private func returnMarker(_ entry: DotNetLayout.Entry) -> String? {
        guard let operation = entry.operation else { return nil }
        if operation.returnsVoid { return "IReturnVoid" }
        if let returned = operation.returnType {
            return FSharpTypeMap.type("IReturn`1", [FSharpTypeMap.type(returned)])
        }
        guard options.returnMarker, let response = operation.response else { return nil }
        let name = FSharpTypeMap.type(response.name, response.genericArgs.isEmpty ? nil : response.genericArgs)
        return FSharpTypeMap.type("IReturn`1", [name])
    }

    /// The members, a marked one (a description, attributes, a data member) followed by a blank
    /// line; then a response's `ResponseStatus` and an extensible class's `ExtensionData` when
    /// asked for.
    private func members(_ type: MetadataType, addsResponseStatus: Bool, extensible: Bool) -> [String] {
        annotations.memberBlock(
            type,
            declaration: { property in
                let typeName = FSharpTypeMap.memberType(property, types)
                let name = ScriptText.identifier(property.name)
                return type.isInterface
                    ? "abstract \(name):\(typeName) with get,set"
                    : "member val \(name):\(typeName) = \(defaultValue(property, typeName, in: type)) with get,set"
            },
            responseStatus: addsResponseStatus && options.responseStatus
                ? "member val ResponseStatus:ResponseStatus = null with get,set" : nil,
            extensionData: extensible ? "member val ExtensionData:ExtensionDataObject = null with get,set" : nil)
    }

    /// A member's starting value: an empty collection (`[||]` for an array) when collections
    /// start empty, a new value for a value type, else `null`.
    private func defaultValue(_ property: MetadataProperty, _ typeName: String, in type: MetadataType) -> String {
        if options.initializesCollections, CSharpTypeMap.isCollection(property),
            CSharpTypeWriter.initializesCollections(of: type)
        {
            return property.typeName.containsMark("[") ? "[||]" : "new \(typeName)()"
        }
        return property.isValueType && typeName != "String" ? "new \(typeName)()" : "null"
    }
}
