/// An ordered list of header fields with case-insensitive lookup.
///
/// Order and duplicates are kept exactly as received, so the request journal can show what a
/// client really sent.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header line.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, compared case-insensitively.
    @inlinable
    public subscript(name: String) -> String? {
        // By index, the names read in place: `first(where:)` copied each field it passed over
        // (a retain and a release of both its strings).
        for index in fields.indices where fields[index].name.equalsIgnoringASCIICase(name) { return fields[index].value }
        return nil
    }

    /// Every value of the named field, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field with this name is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Appends fields in order, keeping any existing ones with the same names: the array grows
    /// once for all of them.
    public mutating func add(_ more: [Field]) {
        fields.append(contentsOf: more)
    }

    /// Replaces every field with this name by a single one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field with this name.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    @inlinable
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension String {
    /// ASCII case-insensitive comparison. The lengths first: `utf8.count` is stored in a
    /// string, and most names a lookup passes differ in length; `==` would go through Unicode
    /// comparison for two different strings before saying no.
    ///
    /// Over the two strings' contiguous bytes (a native string always has them, a small one on
    /// the stack): `UTF8View`'s iterator cost ~90 instructions a byte here, ~1,000 for the
    /// `Content-Type` the journal looks up on every answer.
    @inlinable
    public func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let contiguous = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in equalBytesIgnoringASCIICase(a, b) }
        }
        if let contiguous, let equal = contiguous { return equal }
        return utf8.elementsEqual(other.utf8) { lowerASCII($0) == lowerASCII($1) }
    }
}

/// Whether two byte buffers are equal but for ASCII case.
@inlinable
func equalBytesIgnoringASCIICase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for index in 0..<a.count where a[index] != b[index] && lowerASCII(a[index]) != lowerASCII(b[index]) { return false }
    return true
}

extension StringProtocol {
    /// ASCII case-insensitive comparison, the way HTTP compares tokens.
    ///
    /// Inlinable so that callers in other modules get a version specialized for their string
    /// types: the unspecialized generic walks UTF-8 through witness tables, thousands of
    /// instructions for a short header name, and header lookups run on every request.
    @inlinable
    public func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        let contiguous = a.withContiguousStorageIfAvailable { a in
            b.withContiguousStorageIfAvailable { b in equalBytesIgnoringASCIICase(a, b) }
        }
        if let contiguous, let equal = contiguous { return equal }
        return a.elementsEqual(b) { lowerASCII($0) == lowerASCII($1) }
    }
}

@usableFromInline @inline(__always)
func lowerASCII(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
}
