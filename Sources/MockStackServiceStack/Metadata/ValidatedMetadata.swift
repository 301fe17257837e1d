import Synchronization

/// A metadata document read, its types resolved and checked: what loading an app needs from
/// its `metadata.json`, whatever the rest of its manifest says.
///
/// The same document is often loaded many times in one process (a test suite starting a
/// server per test, a hot reload that left the metadata alone); ``cached(for:orRead:)`` reads,
/// resolves and checks each distinct document once. Its problems are kept with it, so every
/// load that meets them still refuses the app before the ready line.
struct ValidatedMetadata: Sendable {
    let metadata: MetadataTypes
    let catalog: TypeCatalog
    /// What ``MetadataCheck`` found, each at its JSON pointer.
    let problems: [MetadataError]
    /// Route variables no request property binds: problems unless the manifest names them.
    let unboundRouteVariables: [UnboundRouteVariable]

    init(metadata: MetadataTypes) {
        self.metadata = metadata
        catalog = TypeCatalog(metadata: metadata)
        let check = MetadataCheck(metadata: metadata, catalog: catalog)
        problems = check.problems()
        unboundRouteVariables = check.unboundRouteVariables()
    }

    /// The documents this process has read, by their bytes, oldest first.
    private static let recent = Mutex<[(bytes: [UInt8], value: ValidatedMetadata)]>([])
    /// How many distinct documents are kept (the shipped apps have three).
    static let capacity = 8

    /// The document whose bytes these are, read by `read` unless an identical one was read
    /// before. A document that `read` refuses is not kept.
    static func cached<Failure: Error>(
        for bytes: [UInt8], orRead read: () throws(Failure) -> MetadataTypes
    ) throws(Failure) -> ValidatedMetadata {
        if let hit = recent.withLock({ entries in entries.first { $0.bytes == bytes }?.value }) { return hit }
        let value = ValidatedMetadata(metadata: try read())
        recent.withLock { entries in
            guard !entries.contains(where: { $0.bytes == bytes }) else { return }
            if entries.count == capacity { entries.removeFirst() }
            entries.append((bytes, value))
        }
        return value
    }
}
