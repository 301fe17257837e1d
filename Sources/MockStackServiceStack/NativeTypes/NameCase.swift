/// How ServiceStack's script generators spell member names: camelCase for TypeScript,
/// snake_case for Python, both from the .NET name.
///
/// Names are ASCII identifiers in every metadata seen, and are cased over their UTF-8 bytes
/// (walking Characters was a large part of a generated file's cost); a name with other
/// characters takes the Character path, which gives the same text for ASCII.
enum NameCase {
    /// `Id` → `id`, `VendorName` → `vendorName`, `HTTPMethod` → `httpMethod`, `MP3` → `mP3`:
    /// the leading run of capitals is lowered, except the last one of a run that a lower-case
    /// letter or digit follows (a run at the very end is lowered whole).
    static func camel(_ name: String) -> String {
        guard let bytes = camelBytes(name) else { return camelCharacters(name) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `camelCase` → `CamelCase`, `UPPER` → `Upper`, `lower_case` → `LowerCase`: each part
    /// between underscores camelCased, then its first letter raised, as .NET's `ToPascalCase`.
    static func pascal(_ name: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(name.utf8.count)
        for part in name.utf8.split(separator: UInt8(ascii: "_")) {
            guard let camel = camelBytes(part), let first = camel.first else { return pascalCharacters(name) }
            result.append(isLower(first) ? first - 0x20 : first)
            result.append(contentsOf: camel.dropFirst())
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `OrganizationId` → `organization_id`, `MP3` → `m_p3`: camelCase, then an underscore
    /// before each character that is not a lower-case letter, a digit or `_`, lowered.
    static func snake(_ name: String) -> String {
        guard let camel = camelBytes(name) else { return snakeCharacters(name) }
        var result: [UInt8] = []
        result.reserveCapacity(camel.count + 4)
        for byte in camel {
            if isLower(byte) || isDigit(byte) || byte == UInt8(ascii: "_") {
                result.append(byte)
            } else {
                result.append(UInt8(ascii: "_"))
                result.append(isUpper(byte) ? byte | 0x20 : byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The camelCase bytes of an ASCII name; nil for any other.
    private static func camelBytes(_ name: String) -> [UInt8]? { camelBytes(name.utf8[...]) }

    private static func camelBytes(_ name: Substring.UTF8View) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(name.count)
        var leading = true
        var previous: UInt8?
        for byte in name {
            guard byte < 0x80 else { return nil }
            if let previous { append(previous, next: byte) }
            previous = byte
        }
        if let previous { append(previous, next: UInt8(ascii: "A")) }
        return result

        func append(_ byte: UInt8, next: UInt8) {
            if leading, isUpper(byte), isUpper(next) || result.isEmpty {
                result.append(byte | 0x20)
            } else {
                leading = false
                result.append(byte)
            }
        }
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Any other name

    private static func camelCharacters(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        var leading = true
        for index in characters.indices {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : "A"
            if leading, isUpper(character), isUpper(next) || index == 0 {
                result += character.lowercased()
            } else {
                leading = false
                result.append(character)
            }
        }
        return result
    }

    private static func pascalCharacters(_ name: String) -> String {
        name.split(separator: "_").map { part in
            let camel = camelCharacters(String(part))
            return camel.prefix(1).uppercased() + camel.dropFirst()
        }.joined()
    }

    private static func snakeCharacters(_ name: String) -> String {
        var result = ""
        for character in camelCharacters(name) {
            if character.isNumber || character == "_" || (character.isLetter && character.isLowercase) {
                result.append(character)
            } else {
                result += "_" + character.lowercased()
            }
        }
        return result
    }

    private static func isUpper(_ character: Character) -> Bool { character >= "A" && character <= "Z" }
}
