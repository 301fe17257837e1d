import MockStackCore

/// Ajv's error objects, and the `BadRequest` "validation failed" a generated v5 app's schema hooks
/// answer with them as `data` (docs/feathers.md#data-schemas). Ajv stops at the first error, so a
/// failure carries one object, but for `anyOf`, which reports its branches before itself.
enum AjvError {
    /// `{instancePath, schemaPath, keyword, params, message}`, in Ajv's order.
    static func object(
        _ path: String, _ schemaPath: String, _ keyword: String, _ params: JSONObject, _ message: String
    ) -> JSONValue {
        [
            "instancePath": .string(path), "schemaPath": .string(schemaPath), "keyword": .string(keyword),
            "params": .object(params), "message": .string(message),
        ]
    }

    /// The hook's 400 for Ajv's errors.
    static func failure(_ errors: [JSONValue]) -> FeathersError {
        FeathersError(.badRequest, "validation failed", data: .array(errors))
    }

    static func failure(
        _ path: String, _ schemaPath: String, _ keyword: String, _ params: JSONObject, _ message: String
    ) -> FeathersError {
        failure([object(path, schemaPath, keyword, params, message)])
    }

    /// `must be number` at the value's `type` keyword; a list of types (`["number", "null"]`) is
    /// the params' value as it is and the message's as JavaScript writes an array, `number,null`.
    static func type(_ path: String, _ schemaPath: String, _ types: [String]) -> FeathersError {
        failure(
            path, schemaPath + "/type", "type",
            ["type": types.count == 1 ? .string(types[0]) : .array(types.map { .string($0) })],
            "must be \(types.joined(separator: ","))")
    }

    static func type(_ path: String, _ schemaPath: String, _ type: String) -> FeathersError {
        Self.type(path, schemaPath, [type])
    }

    /// `must NOT have additional properties`: reported at the object, naming the first extra key.
    static func additionalProperty(_ name: String, path: String, schemaPath: String) -> FeathersError {
        failure(
            path, schemaPath + "/additionalProperties", "additionalProperties", ["additionalProperty": .string(name)],
            "must NOT have additional properties")
    }

    /// `must have required property 'name'`.
    static func missingProperty(_ name: String, path: String, schemaPath: String) -> FeathersError {
        failure(
            path, schemaPath + "/required", "required", ["missingProperty": .string(name)],
            "must have required property '\(name)'")
    }

    /// A key as a step of an instance path: a JSON pointer's escapes (`~0`, `~1`).
    static func pointerStep(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// A key as a step of a schema path: the pointer's escapes, then `encodeURIComponent`, as
    /// Ajv's `escapeFragment` writes it (`$limit` is `%24limit`).
    static func fragmentStep(_ key: String) -> String {
        let step = pointerStep(key)
        guard !step.utf8.allSatisfy(isUnreserved) else { return step }
        var escaped = ""
        escaped.reserveCapacity(step.utf8.count * 3)
        for byte in step.utf8 {
            if isUnreserved(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return escaped
    }

    /// What `encodeURIComponent` leaves as it is.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "~"),
            UInt8(ascii: "*"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"):
            true
        default: false
        }
    }
}
