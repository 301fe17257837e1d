/// The mistakes in a metadata document that would not stop the app from loading but would make
/// it answer silently wrong: a type that nothing declares (a property of it would bind and
/// serialize as untyped JSON), an operation whose response type is undeclared (its answer would
/// be an empty object), and a route variable that is a misspelt property of the request (its
/// value would be dropped). A route variable far from every property is left alone: the real
/// hosts publish such routes (test.servicestack.net's `/hellotypes/{Name}`, techstacks.io's
/// `/orgs/{OrganizationId}/members/{Id}`), and ServiceStack fails only when one is requested.
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
                for variable in RouteTemplate(route).variableNames where request?.property(named: variable) == nil
                    && Self.isMisspelt(variable, among: request?.properties.map(\.name) ?? []) {
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

    /// Whether `variable` is within two edits of a property's name (ignoring case), or the
    /// request has no properties at all: a typo, rather than a route the host publishes as it is.
    static func isMisspelt(_ variable: String, among properties: [String]) -> Bool {
        properties.isEmpty || properties.contains { editDistance(variable.lowercased(), $0.lowercased(), atMost: 2) <= 2 }
    }

    /// Levenshtein distance, giving up (returning `limit + 1`) once every path is past `limit`.
    static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
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
