package import MockStackJSON

/// A definition the control plane cannot read, naming the field that is wrong (a 400:
/// `match.headers.Accept: expected a string or a pattern object`).
public struct WireProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field's path in the definition (`match.path`, `answer.status`, `times`).
    public var field: String
    /// What is wrong with it (`expected a whole number above 0`).
    public var message: String

    /// A problem with `field`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`, as the 400 says it.
    public var description: String { "\(field): \(message)" }

    /// Refuses the first key of `object` not in `keys`.
    package static func only(_ object: JSONObject, _ keys: [String], at field: String) throws(WireProblem) {
        for key in object.keys where !keys.contains(key) {
            // A typo of a field (`pathprefix`, `nme`) is named as the field it misses.
            let near = DidYouMean.near(key, among: keys)
            throw WireProblem(
                field: field.isEmpty ? key : field + "." + key,
                message: "unknown field\(near.isEmpty ? "" : ", " + DidYouMean.question(near)) "
                    + "(expected one of \(keys.sorted().joined(separator: ", ")))")
        }
    }

    package static func string(_ value: JSONValue?, _ field: String) throws(WireProblem) -> String? {
        guard let value else { return nil }
        guard let text = value.stringValue else { throw WireProblem(field: field, message: "expected a string") }
        return text
    }

    package static func integer(_ value: JSONValue?, _ field: String) throws(WireProblem) -> Int? {
        guard let value else { return nil }
        guard let number = value.intValue else { throw WireProblem(field: field, message: "expected a whole number") }
        return number
    }
}
