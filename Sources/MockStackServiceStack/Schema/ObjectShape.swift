import MockStackCore

/// A DTO class resolved for binding and writing: every property, inherited ones first, with
/// its shape and the key spellings the serializers use.
///
/// A class: it is looked up and passed around on every request, and a struct holding this much
/// would be retained field by field at each copy.
public final class ObjectShape: Sendable {
    /// The type as referenced (`HelloResponse`, `QueryResponse<TechnologyView>`).
    public let reference: TypeReference
    public let properties: [PropertyShape]
    /// Lower-cased name (and DataMember name) → index into ``properties``.
    private let indexByLowercasedName: [String: Int]
    /// The C#, camelCase and DataMember spellings → index: the names clients and templates
    /// nearly always use, found without lower-casing.
    private let indexByExactName: [String: Int]
    /// No two properties share a spelling (`Id` and `ID` are both `id` in camelCase, and a
    /// DataMember name can be another property's; the first declared then wins), so the
    /// expected position, when it matches, is the answer.
    private let spellingsAreUnique: Bool

    init(reference: TypeReference, properties: [PropertyShape]) {
        self.reference = reference
        self.properties = properties
        // Each name hashed once: the first property with a spelling keeps it.
        var lowercased: [(String, Int)] = []
        var spellings: [(String, Int)] = []
        lowercased.reserveCapacity(properties.count * 2)
        spellings.reserveCapacity(properties.count * 3)
        for (position, property) in properties.enumerated() {
            lowercased.append((property.name.lowercased(), position))
            spellings.append((property.name, position))
            spellings.append((property.camelCaseName, position))
            if let alias = property.dataMemberName {
                lowercased.append((alias.lowercased(), position))
                spellings.append((alias, position))
            }
        }
        var spellingsAreUnique = true
        indexByLowercasedName = Dictionary(lowercased, uniquingKeysWith: { first, _ in first })
        indexByExactName = Dictionary(
            spellings,
            uniquingKeysWith: { first, later in
                if first != later { spellingsAreUnique = false }
                return first
            })
        self.spellingsAreUnique = spellingsAreUnique
        responseStatusProperty = properties.first { $0.shape == .responseStatus }
        takesRawBody = properties.contains { $0.shape == .stream }
        valueTypeDefaults = properties.compactMap { property in property.shape.defaultValue.map { (property.name, $0) }
        }
    }

    /// The property a client-sent name means, compared case-insensitively (docs/servicestack.md#request-binding).
    public func property(named name: String) -> PropertyShape? {
        position(ofPropertyNamed: name).map { properties[$0] }
    }

    /// Where in ``properties`` the property a client-sent name means is.
    ///
    /// - Parameter expected: the position to try first. An object's members nearly always come
    ///   in declaration order (a data set's rows are written from the DTOs), so a reader passes
    ///   the position after the last one it found.
    public func position(ofPropertyNamed name: String, expected: Int = 0) -> Int? {
        if spellingsAreUnique, properties.indices.contains(expected), properties[expected].isSpelled(name) {
            return expected
        }
        // DTOs are small: comparing strings beats hashing one.
        if properties.count <= 32 {
            if spellingsAreUnique {
                // One property at most has the spelling: look from the expected position on
                // (a row that leaves out a property goes on after it), then before it.
                for position in properties.indices where position >= expected && properties[position].isSpelled(name) {
                    return position
                }
                for position in properties.indices where position < expected && properties[position].isSpelled(name) {
                    return position
                }
            } else if let exact = properties.firstIndex(where: { $0.isSpelled(name) }) {
                return exact
            }
        } else if let position = indexByExactName[name] {
            return position
        }
        return indexByLowercasedName[name.lowercased()]
    }

    /// The `ResponseStatus` property, if the type has one (it can then wrap an error).
    public let responseStatusProperty: PropertyShape?

    /// A property declared as a `Stream`: the DTO takes the raw body.
    public let takesRawBody: Bool

    /// The value-type properties and the defaults an unset one holds in .NET.
    public let valueTypeDefaults: [(name: String, value: DTOValue)]
}

/// One property of a resolved DTO.
public struct PropertyShape: Sendable {
    /// The C# name (`VendorName`).
    public let name: String
    /// The name in camelCase (`vendorName`), as both ServiceStack serializers write it.
    public let camelCaseName: String
    /// `[DataMember(Name=…)]`, written verbatim whatever the casing.
    public let dataMemberName: String?
    public let shape: ValueShape

    init(name: String, dataMemberName: String?, shape: ValueShape) {
        self.name = name
        self.dataMemberName = dataMemberName
        self.shape = shape
        camelCaseName = Self.camelCase(name)
    }

    /// Whether `key` is one of the exact spellings: C#, camelCase or DataMember.
    func isSpelled(_ key: String) -> Bool {
        name.hasSameUTF8(as: key) || camelCaseName.hasSameUTF8(as: key) || dataMemberName?.hasSameUTF8(as: key) == true
    }

    /// System.Text.Json's camel-casing, which ServiceStack.Text's agrees with for DTO names:
    /// leading capitals are lowered up to the last one before a lower-case letter
    /// (`UInt` → `uInt`, `ID` → `id`, `URLPath` → `urlPath`).
    static func camelCase(_ name: String) -> String {
        if let ascii = asciiCamelCase(name) { return ascii }
        var scalars = Array(name.unicodeScalars)
        guard let first = scalars.first, first.properties.isUppercase else { return name }
        for index in scalars.indices {
            if index == 1, !scalars[index].properties.isUppercase { break }
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if index > 0, let next, !next.properties.isUppercase {
                if next == " " { scalars[index] = lower(scalars[index]) }
                break
            }
            scalars[index] = lower(scalars[index])
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// The same rule on ASCII bytes, without Unicode property lookups (nearly every name).
    private static func asciiCamelCase(_ name: String) -> String? {
        var bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        guard let first = bytes.first, isUpper(first) else { return name }
        for index in bytes.indices {
            if index == 1, !isUpper(bytes[index]) { break }
            if index > 0, index + 1 < bytes.count, !isUpper(bytes[index + 1]) {
                if bytes[index + 1] == UInt8(ascii: " ") { bytes[index] |= 0x20 }
                break
            }
            if isUpper(bytes[index]) { bytes[index] |= 0x20 }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
    }
}
