public import MockStackJSON

/// How one piece of a request — its path, a query parameter, a header, a string in its body —
/// is matched, in stubs and in verification alike.
///
/// JSON: a plain string means `equalTo`; otherwise an object with one operator,
/// `{"equalTo": "…"}`, `{"contains": "…"}`, `{"matches": "regex"}` (the whole value, by
/// mockstack's linear-time matcher) or `{"absent": true}`, and optionally
/// `"caseInsensitive": true` (for `equalTo` and `contains`); or patterns combined,
/// `{"and": [p, …]}`, `{"or": [p, …]}`, `{"not": p}` (as WireMock combines its matchers), at most
/// ``maximumDepth`` deep and ``maximumParts`` patterns in all.
public struct StringPattern: Sendable, Equatable, CustomStringConvertible {
    /// How the value is compared.
    public enum Operator: Sendable, Equatable {
        /// The whole value is this text.
        case equalTo(String)
        /// The value holds this text.
        case contains(String)
        /// A regular expression the whole value must match.
        case matches(String)
        /// The value must not be there at all.
        case absent
        /// Every one of these holds.
        case and([StringPattern])
        /// At least one of these holds.
        case or([StringPattern])
        /// This does not hold (`not absent`: the value is there).
        indirect case not(StringPattern)
    }

    /// The comparison.
    public var `operator`: Operator
    /// ASCII case ignored (`equalTo` and `contains`).
    public var caseInsensitive: Bool

    /// A pattern comparing by `operator`, ignoring ASCII case when asked (for `equalTo` and `contains`).
    public init(_ operator: Operator, caseInsensitive: Bool = false) {
        self.operator = `operator`
        self.caseInsensitive = caseInsensitive
    }

    /// The whole value is `text`.
    public static func equalTo(_ text: String, caseInsensitive: Bool = false) -> StringPattern {
        StringPattern(.equalTo(text), caseInsensitive: caseInsensitive)
    }
    /// The value holds `text`.
    public static func contains(_ text: String, caseInsensitive: Bool = false) -> StringPattern {
        StringPattern(.contains(text), caseInsensitive: caseInsensitive)
    }
    /// The whole value matches the regular expression `regex`.
    public static func matches(_ regex: String) -> StringPattern { StringPattern(.matches(regex)) }
    /// The value is not there at all.
    public static let absent = StringPattern(.absent)
    /// Every one of `patterns` holds.
    public static func and(_ patterns: StringPattern...) -> StringPattern { StringPattern(.and(patterns)) }
    /// At least one of `patterns` holds.
    public static func or(_ patterns: StringPattern...) -> StringPattern { StringPattern(.or(patterns)) }
    /// `pattern` does not hold.
    public static func not(_ pattern: StringPattern) -> StringPattern { StringPattern(.not(pattern)) }

    /// How deep combined patterns may nest: a matcher's work stays bounded by its size.
    public static let maximumDepth = 8
    /// How many patterns one combined pattern may hold in all, itself included.
    public static let maximumParts = 64

    /// Counts one more pattern read into a combined one, refusing one past ``maximumParts``.
    static func count(_ parts: inout Int, at field: String) throws(WireProblem) {
        parts += 1
        guard parts <= maximumParts else {
            throw WireProblem(field: field, message: "more than \(maximumParts) patterns combined")
        }
    }

    /// The operator keys, spelled once.
    static let operatorKeys = ["equalTo", "contains", "matches", "absent", "and", "or", "not"]
    static let caseInsensitiveKey = "caseInsensitive"

    /// Whether a JSON object reads as a pattern: one operator key, and `caseInsensitive` at most.
    static func isPattern(_ object: JSONObject) -> Bool {
        let operators = object.keys.filter(operatorKeys.contains)
        return operators.count == 1 && object.keys.allSatisfy { operatorKeys.contains($0) || $0 == caseInsensitiveKey }
    }

    /// Reads a pattern: a string (`equalTo`) or a pattern object.
    public init(json: JSONValue, field: String) throws(WireProblem) {
        var parts = 0
        try self.init(json: json, field: field, depth: 1, parts: &parts)
    }

    private init(json: JSONValue, field: String, depth: Int, parts: inout Int) throws(WireProblem) {
        try Self.count(&parts, at: field)
        if let text = json.stringValue {
            self.init(.equalTo(text))
            return
        }
        guard case .object(let object) = json else {
            throw WireProblem(
                field: field,
                message:
                    """
                    expected a string or a pattern object ({\"equalTo\"|\"contains\"|\"matches\": \"…\"}, \
                    {\"absent\": true}, or {\"and\"|\"or\": […]}, {\"not\": …})
                    """
            )
        }
        try WireProblem.only(object, Self.operatorKeys + [Self.caseInsensitiveKey], at: field)
        let given = object.keys.filter(Self.operatorKeys.contains)
        guard given.count == 1, let key = given.first, let value = object[key] else {
            throw WireProblem(
                field: field, message: "expected exactly one of \(Self.operatorKeys.joined(separator: ", "))")
        }
        var caseInsensitive = false
        if let flag = object[Self.caseInsensitiveKey] {
            guard let bool = flag.boolValue else {
                throw WireProblem(field: field + "." + Self.caseInsensitiveKey, message: "expected true or false")
            }
            caseInsensitive = bool
        }
        switch key {
        case "absent":
            guard value == .bool(true) else { throw WireProblem(field: field + ".absent", message: "expected true") }
            self.init(.absent)
        case "and", "or", "not":
            guard !caseInsensitive else {
                throw WireProblem(
                    field: field + "." + Self.caseInsensitiveKey,
                    message: "not with \(key) (give it to the patterns inside)")
            }
            guard depth < Self.maximumDepth else {
                throw WireProblem(field: field + "." + key, message: "nested deeper than \(Self.maximumDepth)")
            }
            if key == "not" {
                self.init(.not(try StringPattern(json: value, field: field + ".not", depth: depth + 1, parts: &parts)))
                return
            }
            guard case .array(let items) = value, !items.isEmpty else {
                throw WireProblem(field: field + "." + key, message: "expected a list of patterns")
            }
            var patterns: [StringPattern] = []
            for (index, item) in items.enumerated() {
                patterns.append(
                    try StringPattern(
                        json: item, field: field + "." + key + ".\(index)", depth: depth + 1, parts: &parts))
            }
            self.init(key == "and" ? .and(patterns) : .or(patterns))
        default:
            guard let text = value.stringValue else {
                throw WireProblem(field: field + "." + key, message: "expected a string")
            }
            switch key {
            case "equalTo": self.init(.equalTo(text), caseInsensitive: caseInsensitive)
            case "contains": self.init(.contains(text), caseInsensitive: caseInsensitive)
            default:
                guard !caseInsensitive else {
                    throw WireProblem(
                        field: field + "." + Self.caseInsensitiveKey,
                        message: "not with matches (the regex syntax has no (?i); spell both cases: [Hh]ello)")
                }
                self.init(.matches(text))
            }
        }
    }

    /// The pattern as JSON: a plain string for a case-sensitive `equalTo`.
    public var json: JSONValue {
        if case .equalTo(let text) = self.operator, !caseInsensitive { return .string(text) }
        return objectJSON
    }

    /// The pattern as an object, always (where a plain string would read as something else).
    public var objectJSON: JSONValue {
        var object: JSONObject
        switch self.operator {
        case .equalTo(let text): object = ["equalTo": .string(text)]
        case .contains(let text): object = ["contains": .string(text)]
        case .matches(let regex): object = ["matches": .string(regex)]
        case .absent: object = ["absent": .bool(true)]
        case .and(let patterns): object = ["and": .array(patterns.map(\.json))]
        case .or(let patterns): object = ["or": .array(patterns.map(\.json))]
        case .not(let pattern): object = ["not": pattern.json]
        }
        if caseInsensitive { object[Self.caseInsensitiveKey] = .bool(true) }
        return .object(object)
    }

    /// `'x'`, `containing 'x'`, `matching /x/`, `absent`, for messages.
    public var description: String {
        let suffix = caseInsensitive ? " (any case)" : ""
        switch self.operator {
        case .equalTo(let text): return "'\(text)'" + suffix
        case .contains(let text): return "containing '\(text)'" + suffix
        case .matches(let regex): return "matching /\(regex)/"
        case .absent: return "absent"
        case .and(let patterns): return "all of (\(patterns.map(\.description).joined(separator: ", ")))"
        case .or(let patterns): return "one of (\(patterns.map(\.description).joined(separator: ", ")))"
        case .not(let pattern): return "not \(pattern)"
        }
    }
}
