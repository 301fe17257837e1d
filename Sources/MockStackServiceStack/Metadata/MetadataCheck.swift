import MockStackCore

/// The mistakes in a metadata document that would not stop the app from loading but would make
/// it answer silently wrong: a type that nothing declares (a property of it would bind and
/// serialize as untyped JSON), an operation whose response type is undeclared (its answer would
/// be an empty object; nor may a request's `IReturn<T>` name one, which the generated DTOs would
/// use for a class they never write), and a route variable that is no property of the request (its value
/// would be dropped, and ServiceStack fails every request by that route).
///
/// The real hosts publish a few such routes (test.servicestack.net's `/hellotypes/{Name}`,
/// techstacks.io's `/orgs/{OrganizationId}/members/{Id}`), so route variables are kept apart
/// (``unboundRouteVariables()``): the app's manifest may name the ones its host publishes as
/// they are, and the rest refuse the app.
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
                let unknown = unknownNames(in: returnType.reference, parameters: []).first
            {
                let named = returnType.reference.description == unknown ? "" : " (in \(returnType.reference))"
                problems.append(
                    MetadataError(
                        pointer: pointer + "/returnType",
                        message: "\(operation.name) returns '\(unknown)'\(named), which no type in 'types' declares"))
            }
        }
        return problems
    }

    /// Every route variable that no property of its request binds, in document order.
    /// `{ignore}` is ServiceStack's own placeholder for a segment that binds nothing.
    func unboundRouteVariables() -> [UnboundRouteVariable] {
        var unbound: [UnboundRouteVariable] = []
        for (index, operation) in metadata.operations.enumerated() where !operation.routes.isEmpty {
            let properties = catalog.propertyNames(ofClassNamed: operation.name) ?? []
            let names = properties.map(\.name)
            for (routeIndex, route) in operation.routes.enumerated() {
                for variable in RouteTemplate(route).variableNames
                where !Self.names(variable, in: properties) && variable.lowercased() != "ignore" {
                    let near = DidYouMean.near(variable, among: names)
                    let listed = names.isEmpty ? " (it has none)" : " (\(names.joined(separator: ", ")))"
                    let advice =
                        near.isEmpty
                        ? """
                        ; a route the host publishes as it is goes in the manifest's \
                        operations.\(operation.name).unboundRouteVariables
                        """
                        : "; " + DidYouMean.question(near)
                    unbound.append(
                        UnboundRouteVariable(
                            operation: operation.name, variable: variable,
                            problem: MetadataError(
                                pointer: "/operations/\(index)/routes/\(routeIndex)/path",
                                message: "route '\(route.path)': '{\(variable)}' is not a property of "
                                    + operation.name + listed + advice)))
                }
            }
        }
        return unbound
    }

    /// Whether a route variable binds one of the properties: its name or `[DataMember]` name in
    /// any case, as ``ObjectShape/property(named:)`` finds it.
    static func names(_ variable: String, in properties: [(name: String, dataMemberName: String?)]) -> Bool {
        let lowercased = variable.lowercased()
        return properties.contains {
            $0.name.lowercased() == lowercased || $0.dataMemberName?.lowercased() == lowercased
        }
    }

    /// A declared type's base and properties, each naming only known types.
    private func typeProblems(_ type: MetadataType, at pointer: String) -> [MetadataError] {
        let parameters = Set(type.genericArgs)
        var problems: [MetadataError] = []
        if let base = type.inherits, let unknown = unknownNames(in: base.reference, parameters: parameters).first {
            problems.append(
                MetadataError(
                    pointer: pointer + "/inherits",
                    message: "\(type.name) inherits '\(unknown)', which no type in 'types' declares"))
        }
        if let returned = type.returnMarkerReference,
            let unknown = unknownNames(in: returned, parameters: parameters).first,
            let marker = type.implements.firstIndex(where: { $0.name == "IReturn`1" })
        {
            problems.append(
                MetadataError(
                    pointer: pointer + "/implements/\(marker)/genericArgs/0",
                    message:
                        "\(type.name) returns '\(unknown)' (in IReturn<\(returned)>), which no type in 'types' declares"
                ))
        }
        for (index, property) in type.properties.enumerated() {
            guard let unknown = unknownNames(in: property.type, parameters: parameters).first else { continue }
            problems.append(
                MetadataError(
                    pointer: pointer + "/properties/\(index)/type",
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
