import MockStackCore

/// What the recorder keeps out of an app folder unless told to keep secrets (`record
/// --keep-secrets`): the README lists the same.
///
/// - Header fields left out: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`.
/// - Header fields masked: any other whose name holds `token`, `secret`, `password`, `session`,
///   `api-key` or `apikey` (`X-Api-Key`, `X-Auth-Token`).
/// - JSON members masked, at any depth: those whose name, ignoring case, `-` and `_`, is or ends
///   with `token`, `secret`, `password` or `apikey`, or is `jwt`, `sessionid` or `bearer`
///   (`accessToken`, `refresh_token`, `bearerToken`, `apiKey`, `password`).
///
/// A masked value becomes ``mask``.
public struct SecretMasking: Sendable {
    /// What a masked value is replaced with.
    public static let mask = "***masked***"
    static let droppedHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
    static let secretWords = ["token", "secret", "password", "session", "api-key", "apikey"]
    static let secretEndings = ["token", "secret", "password", "apikey"]
    static let secretNames: Set<String> = ["jwt", "sessionid", "bearer"]

    /// false: `--keep-secrets`, everything kept as it came.
    public let masks: Bool

    public init(masks: Bool) { self.masks = masks }

    /// The fields worth keeping, secrets left out or masked.
    func headers(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        guard masks else { return fields }
        return fields.compactMap { field in
            let name = field.name.lowercased()
            if Self.droppedHeaders.contains(name) { return nil }
            if Self.secretWords.contains(where: name.contains) { return (field.name, Self.mask) }
            return field
        }
    }

    /// Whether a JSON member of this name holds a secret.
    static func isSecret(memberName name: String) -> Bool {
        let plain = String(name.lowercased().filter { $0 != "_" && $0 != "-" })
        return secretNames.contains(plain) || secretEndings.contains(where: plain.hasSuffix)
    }

    /// `value` with every secret member's value masked, and whether any was.
    func json(_ value: JSONValue) -> (JSONValue, masked: Bool) {
        guard masks else { return (value, false) }
        switch value {
        case .object(let object):
            var masked = false
            let members = object.members.map { member -> JSONObject.Member in
                if Self.isSecret(memberName: member.key), member.value != .null, member.value != .string("") {
                    masked = true
                    return (member.key, .string(Self.mask))
                }
                let (inner, innerMasked) = json(member.value)
                masked = masked || innerMasked
                return (member.key, inner)
            }
            return (.object(JSONObject(members)), masked)
        case .array(let items):
            var masked = false
            let mapped = items.map { item in
                let (inner, innerMasked) = json(item)
                masked = masked || innerMasked
                return inner
            }
            return (.array(mapped), masked)
        default:
            return (value, false)
        }
    }

    /// A body with its secrets masked when it is JSON holding any (re-encoded then); any other
    /// body as it came.
    func body(_ bytes: [UInt8], contentType: String?) -> [UInt8] {
        guard masks, contentType?.lowercased().contains("json") == true,
            let parsed = try? JSONParser().parse(bytes).root
        else { return bytes }
        let (masked, changed) = json(parsed)
        return changed ? masked.encoded() : bytes
    }
}
