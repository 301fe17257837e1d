import MockStackCore

extension DTOLayout {
    /// The types a class-based file (Swift, Java) declares, in the order ServiceStack's generators
    /// for those languages write them (docs/servicestack.md#generated-dtos): each selected
    /// operation's request, then their responses, then the metadata's other types; each full
    /// name (``Page`` and ``Page`1`` apart) once.
    ///
    /// - Parameters:
    ///   - allowed: whether the language writes a type at all (Swift leaves the ServiceStack
    ///     package's types to it; both leave ServiceStack's namespaces out under
    ///     `AddServiceStackTypes=False`);
    ///   - allowsResponse: whether an operation's response is written with it (Java leaves a
    ///     response of ServiceStack's own namespaces out when those are ignored).
    static func operationsFirst(
        metadata: MetadataTypes, selection: MetadataDocument.Selection, allowed: (MetadataType) -> Bool,
        allowsResponse: (MetadataType) -> Bool = { _ in true }
    ) -> [Entry] {
        var written: Set<String> = []
        var entries: [Entry] = []
        func add(_ type: MetadataType, _ role: Role) {
            let name = TypeReference.stripArity(type.name)
            let fullName = type.genericArgs.isEmpty ? name : "\(name)`\(type.genericArgs.count)"
            if written.insert(fullName).inserted { entries.append(Entry(type: type, role: role)) }
        }
        func included(_ type: MetadataType) -> Bool { allowed(type) && selection.includesType(type.name) }
        let operations = metadata.operations.filter { selection.includesOperation($0) && allowed($0.request) }
        for operation in operations { add(operation.request, .request(operation)) }
        for operation in operations {
            guard let response = operation.response, included(response), allowsResponse(response) else { continue }
            add(response, .response)
        }
        for type in metadata.types where included(type) { add(type, .type) }
        return entries
    }
}
