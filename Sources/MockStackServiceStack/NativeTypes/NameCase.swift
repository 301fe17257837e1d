/// How ServiceStack's script generators spell member names: camelCase for TypeScript,
/// snake_case for Python, both from the .NET name.
enum NameCase {
    /// `Id` → `id`, `VendorName` → `vendorName`, `HTTPMethod` → `httpMethod`, `MP3` → `mP3`:
    /// the leading run of capitals is lowered, except the last one of a run that a lower-case
    /// letter or digit follows (a run at the very end is lowered whole).
    static func camel(_ name: String) -> String {
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

    /// `OrganizationId` → `organization_id`, `MP3` → `m_p3`: camelCase, then an underscore
    /// before each character that is not a lower-case letter, a digit or `_`, lowered.
    static func snake(_ name: String) -> String {
        var result = ""
        for character in camel(name) {
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
