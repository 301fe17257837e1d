/// A .NET type as `/types/metadata` names it, parsed: `String`, `Int32[]`, ``Nullable`1`` with
/// generic arguments `["Int32"]`, `List<Poco>`, `Dictionary<String,List<Poco>>`.
///
/// Metadata spells generic types two ways: a property's `type` carries the arity suffix
/// (``List`1``) with the arguments in `genericArgs`, while a generic argument is written inline
/// in C# syntax (`Dictionary<String,Poco>`). Both parse to the same value.
public indirect enum TypeReference: Sendable, Hashable, CustomStringConvertible {
    /// A named type with its generic arguments (none for most).
    case named(String, [TypeReference])
    /// `T[]`.
    case array(TypeReference)

    /// Parses a property's `type` and `genericArgs`.
    public init(type: String, genericArgs: [String]) {
        let arguments = genericArgs.map { TypeReference(parsing: $0) }
        if arguments.isEmpty {
            self = TypeReference(parsing: type)
        } else {
            self = .named(Self.stripArity(type), arguments)
        }
    }

    /// Parses C#-style text: `Name`, `Name[]`, `Name<A,B<C>>`, `Name`1` (arity dropped).
    public init(parsing text: String) {
        // Nearly every name is plain (`String`, `Technology`): taken as it is, without a parse.
        guard text.utf8.contains(where: { Parser.isDelimiter($0) || $0 == UInt8(ascii: "`") }) else {
            self = .named(text, [])
            return
        }
        var parser = Parser(bytes: Array(text.utf8))
        self = parser.parse()
    }

    /// The name without generic arguments or array brackets.
    public var name: String {
        switch self {
        case .named(let name, _): name
        case .array(let element): element.name
        }
    }

    public var arguments: [TypeReference] {
        if case .named(_, let arguments) = self { return arguments }
        return []
    }

    public var description: String {
        switch self {
        case .named(let name, let arguments) where arguments.isEmpty: name
        case .named(let name, let arguments): "\(name)<\(arguments.map(\.description).joined(separator: ","))>"
        case .array(let element): "\(element)[]"
        }
    }

    static func stripArity(_ name: String) -> String {
        guard let tick = name.utf8.firstIndex(of: UInt8(ascii: "`")) else { return name }
        return String(name[..<tick])
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func parse() -> TypeReference {
            skipSpaces()
            let start = position
            while position < bytes.count, !Self.isDelimiter(bytes[position]) { position += 1 }
            let name = TypeReference.stripArity(String(decoding: bytes[start..<position], as: UTF8.self))
            var arguments: [TypeReference] = []
            if position < bytes.count, bytes[position] == UInt8(ascii: "<") {
                position += 1
                repeat {
                    arguments.append(parse())
                    skipSpaces()
                } while consume(UInt8(ascii: ","))
                _ = consume(UInt8(ascii: ">"))
            }
            var result = TypeReference.named(name, arguments)
            skipSpaces()
            while position + 1 < bytes.count, bytes[position] == UInt8(ascii: "["),
                bytes[position + 1] == UInt8(ascii: "]")
            {
                position += 2
                result = .array(result)
            }
            return result
        }

        static func isDelimiter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: " "): true
            default: false
            }
        }

        mutating func skipSpaces() {
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }
    }
}
