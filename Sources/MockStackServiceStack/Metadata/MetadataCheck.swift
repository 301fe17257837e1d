/// The mistakes in a metadata document that would not stop the app from loading but would make
/// it answer silently wrong: a type that nothing declares (a property of it would bind and
/// serialize as untyped JSON), an operation whose response type is undeclared (its answer would
/// be an empty object), and a route variable that is no property of the request (its value
/// would be dropped). ServiceStack itself refuses the last at start-up.
///
/// Each problem carries the JSON pointer of the name at fault in the document.
struct MetadataCheck {
    let metadata: MetadataTypes
    let catalog: TypeCatalog

    func problems() -> [MetadataError] {
        var problems: [MetadataError] = []
        for (index, type) in metadata.types.enumerated() {
            problems += typeProblems(type, at: "/types/\(index)")
        }
        for (index, operation) in metadata.operations.enumerated() {
            let pointer = "/operations/\(index)"
            problems += typeProblems(operation.request, at: pointer + "/request")
            if let response = operation.response { problems += typeProblems(response, at: pointer + "/response") }
            if let returnType = operation.returnType,
               let unknown = unknownNames(in: returnType.reference, parameters: []).first {
                let named = returnType.reference.description == unknown ? "" : " (in \(returnType.reference))"
                problems.append(MetadataError(pointer: pointer + "/returnType",
                                              message: "\(operation.name) returns '\(unknown)'\(named), which no type in 'types' declares"))
            }
            let request = catalog.object(named: operation.name)
            for (routeIndex, route) in operation.routes.enumerated() {
                for variable in RouteTemplate(route).variableNames where request?.property(named: variable) == nil {
                    let known = request?.properties.map(\.name).joined(separator: ", ") ?? ""
                    problems.append(MetadataError(
                        pointer: pointer + "/routes/\(routeIndex)/path",
                        message: "route '\(route.path)': '{\(variable)}' is not a property of \(operation.name)"
                            + (known.isEmpty ? " (it has none)" : " (\(known))")))
                }
            }
        }
        return problems
    }

    /// A declared type's base and properties, each naming only known types.
    private func typeProblems(_ type: MetadataType, at pointer: String) -> [MetadataError] {
        let parameters = Set(type.genericArgs)
        var problems: [MetadataError] = []
        if let base = type.inherits, let unknown = unknownNames(in: base.reference, parameters: parameters).first {
            problems.append(MetadataError(pointer: pointer + "/inherits", message: "\(type.name) inherits '\(unknown)', which no type in 'types' declares"))
        }
        for (index, property) in type.properties.enumerated() {
            guard let unknown = unknownNames(in: property.type, parameters: parameters).first else { continue }
            problems.append(MetadataError(pointer: pointer + "/properties/\(index)/type",
                                          message: "\(type.name).\(property.name) is of type '\(unknown)', which no type in 'types' declares "
                                              + "and is not a .NET type mockstack knows"))
        }
        return problems
    }

    /// The names in `reference` that are neither known .NET types, declared types nor the
    /// declaring type's own generic parameters.
    private func unknownNames(in reference: TypeReference, parameters: Set<String>) -> [String] {
        switch reference {
        case .array(let element):
            return unknownNames(in: element, parameters: parameters)
        case .named(let name, let arguments):
            let inner = arguments.flatMap { unknownNames(in: $0, parameters: parameters) }
            let known = arguments.isEmpty && parameters.contains(name) || catalog.knows(name, arity: arguments.count)
            return (known ? [] : [name]) + inner
        }
    }
}
