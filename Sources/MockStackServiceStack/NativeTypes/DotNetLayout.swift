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
        // Each text's collation key is worked out once: comparing by the rules scalar by scalar
        // inside the sort would do it again at every comparison.
        let keyed = candidates.enumerated().map { offset, entry in
            (
                entry: entry, offset: offset, namespace: DotNetCollation.Key(entry.type.namespace ?? ""),
                name: DotNetCollation.Key(entry.type.name)
            )
        }
        let sorted = keyed.sorted { left, right in
            if left.namespace != right.namespace { return left.namespace < right.namespace }
            if left.name != right.name { return left.name < right.name }
            return left.offset < right.offset
        }
        var written: Set<String> = []
        return sorted.map(\.entry).filter { written.insert(Self.identity($0.type)).inserted }
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
    /// A text's place in that order, worked out once.
    struct Key: Comparable {
        /// Each character's primary weight.
        let weights: [UInt32]
        /// Whether each character is lower case: the tie-break where only case differs.
        let lowercase: [Bool]

        init(_ text: String) {
            var weights: [UInt32] = []
            var lowercase: [Bool] = []
            for scalar in text.unicodeScalars {
                weights.append(DotNetCollation.weight(scalar))
                lowercase.append(DotNetCollation.isLowercase(scalar))
            }
            self.weights = weights
            self.lowercase = lowercase
        }

        /// By primary weights, a prefix first; then at the first difference in case alone, the
        /// lower-case letter first.
        static func < (left: Key, right: Key) -> Bool {
            if left.weights != right.weights { return left.weights.lexicographicallyPrecedes(right.weights) }
            for (x, y) in zip(left.lowercase, right.lowercase) where x != y { return x }
            return false
        }
    }

    /// Negative, zero or positive, as `left` sorts before, with or after `right`.
    static func compare(_ left: String, _ right: String) -> Int {
        let (a, b) = (Key(left), Key(right))
        return a < b ? -1 : b < a ? 1 : 0
    }

    /// A character's primary weight: punctuation and symbols, then digits, then letters (case
    /// folded). ASCII, which every name in metadata is, without Unicode's property tables.
    fileprivate static func weight(_ scalar: Unicode.Scalar) -> UInt32 {
        let value = scalar.value
        if value < 0x80 {
            if value >= 0x30 && value <= 0x39 { return 0x1_0000 + value }
            if (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A { return 0x2_0000 + (value | 0x20) }
            return value
        }
        if scalar.properties.isAlphabetic {
            let folded = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
            return 0x2_0000 + folded.value
        }
        return value
    }

    fileprivate static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value >= 0x61 && scalar.value <= 0x7A : scalar.properties.isLowercase
    }
}
