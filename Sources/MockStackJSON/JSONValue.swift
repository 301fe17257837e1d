/// A JSON value that keeps object key order and number literals exactly as written.
///
/// Real ServiceStack and Feathers servers emit keys in declaration order, and clients' golden
/// tests compare bytes, so mockstack never routes JSON through an unordered dictionary.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int? {
        if case .number(let n) = self { return n.intValue }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The JSON type name used in diagnostics ("object", "string", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number kept as its literal text, so that `1.50` re-encodes as `1.50`.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    public let literal: String

    /// Wraps a literal; callers guarantee it is valid JSON number syntax.
    public init(literal: String) { self.literal = literal }

    public init(_ value: Int) { literal = String(value) }

    public init(_ value: Double) {
        literal = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The value as an integer when it is integral and fits.
    public var intValue: Int? {
        if let exact = Int(literal) { return exact }
        guard let double = Double(literal), double == double.rounded(),
              double >= Double(Int.min), double < Double(Int.max) else { return nil }
        return Int(double)
    }

    public var doubleValue: Double { Double(literal) ?? .nan }

    public var description: String { literal }
}

/// An ordered JSON object. Lookup by key is linear, which beats hashing for the small objects
/// fixtures and DTOs have; duplicate keys keep the last value, as JSON parsers conventionally do.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Member = (key: String, value: JSONValue)

    public private(set) var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { (key: $0.0, value: $0.1) }
    }

    public subscript(key: String) -> JSONValue? {
        get { members.last { $0.key == key }?.value }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Sets each of `other`'s members in its order, as the subscript would one by one (a key
    /// present takes the new value where it stands, a new key goes last), in linear time: one
    /// subscript set per key scans the members, so K new keys cost K² comparisons.
    public mutating func merge(_ other: JSONObject) {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count + other.members.count)
        // The last of duplicated keys is the one the subscript reads and sets.
        for (position, member) in members.enumerated() { positions[member.key] = position }
        for member in other.members {
            if let position = positions[member.key] {
                members[position].value = member.value
            } else {
                positions[member.key] = members.count
                members.append(member)
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}
