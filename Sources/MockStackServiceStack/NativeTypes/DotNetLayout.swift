import MockStackCore

/// The types a .NET file (`/types/csharp`, `/types/fsharp`) declares, in ServiceStack's order for
/// the language (docs/servicestack.md#generated-dtos): for C#, every request, response and type
/// sorted by namespace then name as .NET compares text; for F#, the types, responses and requests
/// each after the types it depends on (``DTOLayout/orderedByDependencies(_:returnTypes:)``), as F#
/// needs a type declared before its use. Each is written once, a request before a response
/// before a type of the same name. The file's `using`/`open` namespaces beside them.
///
/// A .NET client has ServiceStack's own types in its library, so the types of ServiceStack's
/// namespaces are left out unless the query asks for them (`AddServiceStackTypes=true`); .NET's
/// own (`System.*`) are always left out.
struct DotNetLayout {
    struct Entry {
        let type: MetadataType
        /// The operation, when the type is its request.
        let operation: MetadataOperation?
        let isResponse: Bool
    }

    /// How the entries are ordered.
    enum Order {
        /// By namespace, then name (C#).
        case byName
        /// Types, responses, then requests, each after what it names (F#).
        case byDependencies
    }

    /// The entries, in file order.
    let entries: [Entry]
    /// The namespaces the file uses, in ServiceStack's order: the ``defaultNamespaces``, then the
    /// types' own (or the `GlobalNamespace`).
    let namespaces: [String]
    /// The host's default namespaces, `AddNamespaces`, then the .NET and ServiceStack namespaces
    /// the metadata uses (ServiceStack's `GetDefaultNamespaces`): all an F# file opens.
    let defaultNamespaces: [String]

    init(
        metadata: MetadataTypes, selection: MetadataDocument.Selection, options: NativeTypesOptions,
        globalNamespace: String?, order: Order = .byName
    ) {
        let addsServiceStackTypes = options.isGiven("AddServiceStackTypes") && options.flag("AddServiceStackTypes")
        let ignored: Set<String> = addsServiceStackTypes ? [] : SwiftGenerator.serviceStackNamespaces
        func isSystem(_ type: MetadataType) -> Bool {
            (type.namespace ?? "").hasPrefix("System") || type.inherits?.name == "Array"
        }
        let types = metadata.types.filter {
            !isSystem($0) && !ignored.contains($0.namespace ?? "") && selection.includesType($0.name)
        }
        let operations = metadata.operations.filter {
            !ignored.contains($0.request.namespace ?? "") && selection.includesOperation($0)
        }
        // A response left out by name is not written as one.
        let responses = operations.compactMap(\.response).filter { selection.includesType($0.name) && !isSystem($0) }

        var namespaces = OrderedNames()
        options.list("DefaultNamespaces").forEach { namespaces.add($0) }
        options.list("AddNamespaces").forEach { namespaces.add($0) }
        for namespace in metadata.namespaces where namespace.hasPrefix("System") || ignored.contains(namespace) {
            namespaces.add(namespace)
        }
        defaultNamespaces = namespaces.names.filter { !$0.isEmpty }
        if !options.flag("ExcludeNamespace") {
            if let globalNamespace {
                namespaces.add(globalNamespace)
            } else {
                types.forEach { namespaces.add($0.namespace ?? "") }
                for operation in operations {
                    namespaces.add(operation.request.namespace ?? "")
                    if let response = operation.response { namespaces.add(response.namespace ?? "") }
                }
            }
        }
        self.namespaces = namespaces.names.filter { !$0.isEmpty }

        let requests = operations.map { Entry(type: $0.request, operation: $0, isResponse: false) }
        let written = responses.filter { !ignored.contains($0.namespace ?? "") }.map {
            Entry(type: $0, operation: nil, isResponse: true)
        }
        let others = types.map { Entry(type: $0, operation: nil, isResponse: false) }
        switch order {
        case .byName: entries = Self.sortedByName(requests + written + others)
        case .byDependencies:
            entries = Self.orderedByDependencies(types: others, responses: written, requests: requests)
        }
    }

    /// Sorted by namespace then name; requests, then responses, then types among equal names (a
    /// stable sort keeps their order), each once.
    private static func sortedByName(_ candidates: [Entry]) -> [Entry] {
        let sorted = candidates.enumerated().sorted { left, right in
            let order = DotNetCollation.compare(left.element.type.namespace ?? "", right.element.type.namespace ?? "")
            if order != 0 { return order < 0 }
            let byName = DotNetCollation.compare(left.element.type.name, right.element.type.name)
            return byName != 0 ? byName < 0 : left.offset < right.offset
        }
        var written: Set<String> = []
        return sorted.map(\.element).filter { written.insert(Self.identity($0.type)).inserted }
    }

    /// The types, responses and requests in ServiceStack's dependency order, each once as what
    /// it is first: a request, else a response, else a type.
    private static func orderedByDependencies(types: [Entry], responses: [Entry], requests: [Entry]) -> [Entry] {
        var roles: [String: Entry] = [:]
        for entry in types + responses + requests { roles[identity(entry.type)] = entry }
        var seen: Set<String> = []
        let candidates = (types + responses + requests).map { ($0.type, identity($0.type)) }.filter {
            seen.insert($0.1).inserted
        }
        var returnTypes: [String: MetadataTypeName] = [:]
        for request in requests {
            if let returned = request.operation?.returnType { returnTypes[request.type.name] = returned }
        }
        return DTOLayout.orderedByDependencies(candidates, returnTypes: returnTypes).compactMap { roles[$0.identity] }
    }

    static func identity(_ type: MetadataType) -> String { (type.namespace ?? "") + "." + type.name }

    /// Names in the order first added, each once (a .NET `HashSet`'s order).
    private struct OrderedNames {
        var names: [String] = []
        var seen: Set<String> = []
        mutating func add(_ name: String) { if seen.insert(name).inserted { names.append(name) } }
    }
}

/// How .NET's default string comparison orders type names and namespaces (ICU's root
/// collation): letters alphabetically whatever their case, punctuation (`_`, `` ` ``, `.`)
/// before digits before letters, a prefix before what extends it, and at the first difference
/// in case alone the lower-case letter first.
enum DotNetCollation {
    /// Negative, zero or positive, as `left` sorts before, with or after `right`.
    static func compare(_ left: String, _ right: String) -> Int {
        let a = Array(left.unicodeScalars)
        let b = Array(right.unicodeScalars)
        for (x, y) in zip(a, b) where weight(x) != weight(y) { return weight(x) < weight(y) ? -1 : 1 }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y {
            // Only case differs here: lower case first.
            return x.properties.isLowercase ? -1 : 1
        }
        return 0
    }

    /// A character's primary weight: punctuation and symbols, then digits, then letters (case folded).
    private static func weight(_ scalar: Unicode.Scalar) -> UInt32 {
        if ("0"..."9").contains(scalar) { return 0x1_0000 + scalar.value }
        if scalar.properties.isAlphabetic {
            let folded = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
            return 0x2_0000 + folded.value
        }
        return scalar.value
    }
}
