/// A JSON value that keeps object key order and number literals exactly as written.
///
/// Real ServiceStack and Feathers servers emit keys in declaration order, and clients' golden
/// tests compare bytes, so mockstack never routes JSON through an unordered dictionary.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as written.
    case number(JSONNumber)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object(JSONObject)

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The text when this is a string; nil otherwise (a number is not read as text).
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value when this is an integral number that fits an `Int`; nil otherwise.
    public var intValue: Int? {
        if case .number(let n) = self { return n.intValue }
        return nil
    }

    /// The value when this is `true` or `false`; nil otherwise.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements when this is an array; nil otherwise.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members when this is an object; nil otherwise.
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
    /// The number's text, exactly as it is written out (`1.50`, `-3e2`).
    public let literal: String

    /// Wraps a literal; callers guarantee it is valid JSON number syntax.
    public init(literal: String) { self.literal = literal }

    /// An integer.
    public init(_ value: Int) { literal = String(value) }

    /// A double: integral values below 10^15 without a fraction (`3`, not `3.0`), others as Swift writes them.
    public init(_ value: Double) {
        literal = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The value as an integer when it is integral and fits.
    public var intValue: Int? {
        if let exact = Int(literal) { return exact }
        guard let double = Double(literal), double == double.rounded(),
            double >= Double(Int.min), double < Double(Int.max)
        else { return nil }
        return Int(double)
    }

    /// The value as a double (NaN if the literal cannot be read as one).
    public var doubleValue: Double { Double(literal) ?? .nan }

    /// The literal.
    public var description: String { literal }
}

/// An ordered JSON object. Lookup by key is linear, which beats hashing for the small objects
/// fixtures and DTOs have; duplicate keys keep the last value, as JSON parsers conventionally do.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public typealias Member = (key: String, value: JSONValue)

    /// The members in order, duplicates included as read.
    public private(set) var members: [Member]

    /// An object of these members, in this order.
    public init(_ members: [Member] = []) { self.members = members }

    /// `["a": 1, "b": 2]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The last member named `key`. Setting replaces it where it stands, appends a new key, and
    /// removes it when set to nil.
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

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }
    /// How many members there are.
    public var count: Int { members.count }
    /// Whether there are none.
    public var isEmpty: Bool { members.isEmpty }

    /// The members in order.
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// Equal when the same members come in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// `"text"` as a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `1` as a number.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// `true` as a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, "a"]` as an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `["a": 1]` as an object, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    /// `nil` as `null`.
    public init(nilLiteral: ()) { self = .null }
}
