extension MetadataOperation {
    /// The verb a request is sent with, as ServiceStack decides it for the metadata's `method`
    /// (docs/servicestack.md#generated-dtos): the metadata's own, else the one the request's
    /// interfaces, routes or AutoQuery kind imply (its bases' too, as .NET lists a type's
    /// inherited interfaces with its own), else the one action its service implements (a
    /// `Get` method), else POST.
    /// - Parameter types: the metadata's types by .NET name, where the request's bases are found.
    func sendingMethod(types: [String: MetadataType]) -> String {
        method ?? inferredMethod ?? inheritedMethod(types: types) ?? actions.first { $0 != "ANY" } ?? "POST"
    }

    /// The method ServiceStack's clients infer for a request whose metadata names none, in
    /// their order: an `IGet`… marker, else the one verb its routes name, else its AutoQuery
    /// kind (`ICreateDb` POST, `IUpdateDb` PUT, `IDeleteDb` DELETE, `IPatchDb` PATCH, `ISaveDb`
    /// POST, a `QueryDb`/`QueryData` GET).
    var inferredMethod: String? {
        if let marker = Self.markers.first(where: { request.implements($0.0) }) { return marker.1 }
        var verbs: [String] = []
        for route in routes where !route.verbs.isEmpty {
            let verb = route.verbs.joined(separator: ",").uppercased()
            if Self.verbs.contains(verb), !verbs.contains(verb) { verbs.append(verb) }
        }
        if verbs.count == 1 { return verbs[0] }
        if let kind = Self.autoCrudKinds.first(where: { request.implements($0.0) }) { return kind.1 }
        return ScriptText.isAutoQuery(request) ? "GET" : nil
    }

    /// The verb a request's bases imply (`QueryRockstarAudit` of `QueryDbTenant<From, Into>`, an
    /// `UpdateRockstarAuditTenant` whose base is an `IUpdateDb<T>`): a marker or AutoCrud
    /// interface of the chain, then GET for a query.
    private func inheritedMethod(types: [String: MetadataType]) -> String? {
        var chain: [MetadataType] = []
        var next = request.inherits.flatMap { types[$0.name] }
        while let base = next, chain.count < 32 {
            chain.append(base)
            next = base.inherits.flatMap { types[$0.name] }
        }
        for (interface, verb) in Self.markers + Self.autoCrudKinds
        where chain.contains(where: { $0.implements(interface) }) {
            return verb
        }
        return chain.contains { Self.queries.contains(TypeReference.stripArity($0.name)) } ? "GET" : nil
    }

    private static let verbs: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    private static let queries: Set<String> = ["QueryBase", "QueryDb", "QueryData"]

    private static let markers = [
        ("IGet", "GET"), ("IPost", "POST"), ("IPut", "PUT"), ("IPatch", "PATCH"), ("IDelete", "DELETE"),
        ("IOptions", "OPTIONS"),
    ]
    private static let autoCrudKinds = [
        ("ICreateDb", "POST"), ("IUpdateDb", "PUT"), ("IDeleteDb", "DELETE"), ("IPatchDb", "PATCH"),
        ("ISaveDb", "POST"),
    ]
}
