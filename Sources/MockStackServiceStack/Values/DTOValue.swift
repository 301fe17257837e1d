public import MockStackCore

/// A value of a request or response DTO, typed the way the .NET property is: what binding
/// produces from query strings, forms and JSON bodies, what behaviours read and build, and what
/// the serializer writes in the host's own dialect (WCF or ISO dates, camel or Pascal keys).
public enum DTOValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Every numeric type; the literal is already normalised for its .NET type.
    case number(JSONNumber)
    /// `String`, `Char`.
    case string(String)
    case dateTime(DateTimeValue)
    case timeSpan(TimeSpanValue)
    /// A `Guid` as 32 lowercase hex digits.
    case guid(String)
    /// `byte[]`, remembering whether it arrived as base64 or as a number array so an echo
    /// answers in the same form (docs/servicestack.md#what-the-clients-need).
    case bytes([UInt8], BytesForm)
    /// An enum member by name.
    case enumMember(String)
    case list([DTOValue])
    /// A dictionary; keys keep their text and order (they are never re-cased).
    case map([DTOMapEntry])
    case object(DTOObject)
    /// A value of a type the metadata does not describe (`Object`), passed through as JSON.
    case json(JSONValue)

    public enum BytesForm: Sendable, Equatable {
        case base64
        case array
    }

    public var isNull: Bool { self == .null }

    /// The text of a string-like value (strings, enum names, guids), or the literal of a number.
    public var text: String? {
        switch self {
        case .string(let text), .enumMember(let text), .guid(let text): text
        case .number(let number): number.literal
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    public var intValue: Int? {
        if case .number(let number) = self { return number.intValue }
        return nil
    }

    public var objectValue: DTOObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var listValue: [DTOValue]? {
        if case .list(let list) = self { return list }
        return nil
    }
}

/// One entry of a dictionary value.
public struct DTOMapEntry: Sendable, Equatable {
    public var key: String
    public var value: DTOValue

    public init(key: String, value: DTOValue) {
        self.key = key
        self.value = value
    }
}

/// An instance of a DTO class: the values set on it, by C# property name. Properties never
/// set read as `null`; the serializer fills in value-type defaults from the type.
public struct DTOObject: Sendable, Equatable {
    public private(set) var members: [(name: String, value: DTOValue)]
    /// Properties left out when unset, even where the writer would otherwise write an empty
    /// collection: ones the real service sets to null on purpose (AutoQuery's empty `Meta`).
    public var leftOutWhenUnset: Set<String> = []

    public init(_ members: [(name: String, value: DTOValue)] = []) {
        self.members = members
    }

    /// The value of a property (exact C# name), `.null` when unset.
    public subscript(name: String) -> DTOValue {
        get { index(of: name).map { members[$0].value } ?? .null }
        set {
            if let index = index(of: name) {
                members[index].value = newValue
            } else {
                members.append((name, newValue))
            }
        }
    }

    /// Where the member named `name` (exactly) is. By index, the names read in place:
    /// `first(where:)` copies each member it passes (a retain and a release of its name and value).
    private func index(of name: String) -> Int? {
        for index in members.indices where members[index].name.hasSameUTF8(as: name) { return index }
        return nil
    }

    /// The value of a property whose name matches ignoring case (for behaviours configured by
    /// hand, where `name` and `Name` mean the same).
    public func value(named name: String) -> DTOValue {
        if let exact = index(of: name) { return members[exact].value }
        for index in members.indices where members[index].name.equalsIgnoringASCIICase(name) {
            return members[index].value
        }
        return .null
    }

    public mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    /// Adds a member known not to be set yet (no search for an existing one).
    public mutating func append(_ name: String, _ value: DTOValue) {
        members.append((name, value))
    }

    public var isEmpty: Bool { members.isEmpty }

    public static func == (lhs: DTOObject, rhs: DTOObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.leftOutWhenUnset == rhs.leftOutWhenUnset
            && zip(lhs.members, rhs.members).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
