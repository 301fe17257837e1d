/// An ordered list of header fields with case-insensitive lookup.
///
/// Order and duplicates are kept exactly as received, so the request journal can show what a
/// client really sent.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header line.
    public struct Field: Sendable, Equatable {
        public var name: String { didSet { line = nil } }
        public var value: String { didSet { line = nil } }
        /// The line a head sends for this field, rendered once by ``prepared()``; nil for a
        /// field rendered on each answer.
        public private(set) var line: RenderedHead.FieldLine?

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// The same field with its line rendered now, for a field made once and sent on many
        /// answers (the CORS headers, the JSON `Content-Type`): each head then copies the line
        /// instead of checking and copying the name and value again. A field the head leaves
        /// out or reads itself (framing, `Date`, `Connection`, an unsafe one) stays unrendered.
        public func prepared() -> Field {
            var field = self
            field.line = RenderedHead.FieldLine(self)
            return field
        }

        /// Equal when they would send the same name and value; the rendered line is only a cache.
        public static func == (a: Field, b: Field) -> Bool {
            a.name == b.name && a.value == b.value
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
        for index in fields.indices where fields[index].name.equalsIgnoringASCIICase(name) {
            return fields[index].value
        }
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
    /// the stack): `UTF8View`'s iterator is far slower a byte, and the journal looks up
    /// `Content-Type` on every answer.
    @inlinable
    public func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return UTF8Bytes.withSpan(self) { a in UTF8Bytes.withSpan(other) { b in equalBytesIgnoringASCIICase(a, b) } }
    }
}

extension String {
    /// Whether the string starts with `prefix`, ASCII case aside; over both strings' bytes in
    /// place, as ``equalsIgnoringASCIICase(_:)``.
    @inlinable
    public func hasPrefixIgnoringASCIICase(_ prefix: String) -> Bool {
        guard utf8.count >= prefix.utf8.count else { return false }
        return UTF8Bytes.withSpan(self) { a in
            UTF8Bytes.withSpan(prefix) { b in equalBytesIgnoringASCIICase(a.extracting(0..<b.count), b) }
        }
    }
}

/// Whether two byte spans are equal but for ASCII case.
@inlinable
func equalBytesIgnoringASCIICase(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for index in a.indices where a[index] != b[index] && a[index].asciiLowercased != b[index].asciiLowercased {
        return false
    }
    return true
}

extension StringProtocol {
    /// ASCII case-insensitive comparison, the way HTTP compares tokens.
    ///
    /// Inlinable so that callers in other modules get a version specialized for their string
    /// types: the unspecialized generic walks UTF-8 through witness tables, a call per byte.
    /// (Two `String`s take the overload above, over their bytes in place.)
    @inlinable
    public func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        let a = utf8
        let b = other.utf8
        guard a.count == b.count else { return false }
        return a.elementsEqual(b) { $0.asciiLowercased == $1.asciiLowercased }
    }
}
