public import MockStackJSON

/// How one piece of a request — its path, a query parameter, a header, a string in its body —
/// is matched, in stubs and in verification alike.
///
/// JSON: a plain string means `equalTo`; otherwise an object with one operator,
/// `{"equalTo": "…"}`, `{"contains": "…"}`, `{"matches": "regex"}` (the whole value, by
/// mockstack's linear-time matcher) or `{"absent": true}`, and optionally
/// `"caseInsensitive": true` (for `equalTo` and `contains`); a date compared with a ``Moment``,
/// `{"before"|"after"|"equalToDateTime": "now -1 hours"}`; or patterns combined,
/// `{"and": [p, …]}`, `{"or": [p, …]}`, `{"not": p}` (as WireMock combines its matchers), at most
/// ``maximumDepth`` deep and ``maximumParts`` patterns in all. For a name that may repeat (a
/// query parameter, a header), the values as a whole: `{"hasExactly": [p, …]}` and
/// `{"includes": [p, …]}`, WireMock's multi-value patterns.
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
        /// A date (ISO 8601, or an HTTP date) before this moment.
        case before(Moment)
        /// A date after this moment.
        case after(Moment)
        /// A date at this moment, to the second.
        case equalToDateTime(Moment)
        /// Every value of a name that repeats matches one of these, one each, in any order, and
        /// there are as many values as patterns.
        case hasExactly([StringPattern])
        /// Each of these matches one of the values of a name that repeats.
        case includes([StringPattern])
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
    /// A date before `moment` (`try .before(Moment("now -1 hours"))`).
    public static func before(_ moment: Moment) -> StringPattern { StringPattern(.before(moment)) }
    /// A date after `moment`.
    public static func after(_ moment: Moment) -> StringPattern { StringPattern(.after(moment)) }
    /// A date at `moment`, to the second.
    public static func equalToDateTime(_ moment: Moment) -> StringPattern { StringPattern(.equalToDateTime(moment)) }
    /// A repeated name's values, one each for `patterns`, in any order, and no more.
    public static func hasExactly(_ patterns: StringPattern...) -> StringPattern {
        StringPattern(.hasExactly(patterns))
    }
    /// A repeated name's values, among them one for each of `patterns`.
    public static func includes(_ patterns: StringPattern...) -> StringPattern { StringPattern(.includes(patterns)) }

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
    static let operatorKeys = [
        "equalTo", "contains", "matches", "absent", "and", "or", "not", "before", "after", "equalToDateTime",
        "hasExactly", "includes",
    ]
    /// The operators over the values of a name that repeats, as a list.
    static let valueListKeys = ["hasExactly", "includes"]
    static let caseInsensitiveKey = "caseInsensitive"

    /// Whether a JSON object reads as a pattern: one operator key, and `caseInsensitive` at most.
    static func isPattern(_ object: JSONObject) -> Bool {
        let operators = object.keys.filter(operatorKeys.contains)
        return operators.count == 1 && object.keys.allSatisfy { operatorKeys.contains($0) || $0 == caseInsensitiveKey }
    }

    /// Reads a pattern: a string (`equalTo`) or a pattern object.
    /// - Parameter repeats: whether the value is a name's that may repeat (a query parameter, a
    ///   header), so that `hasExactly` and `includes` may compare its values as a list.
    public init(json: JSONValue, field: String, repeats: Bool = false) throws(WireProblem) {
        var parts = 0
        try self.init(json: json, field: field, depth: 1, parts: &parts, repeats: repeats)
    }

    /// Whether it compares a repeated name's values as a list (`hasExactly`, `includes`).
    public var isValueList: Bool {
        switch self.operator {
        case .hasExactly, .includes: true
        default: false
        }
    }

    private init(
        json: JSONValue, field: String, depth: Int, parts: inout Int, repeats: Bool = false
    )
        throws(WireProblem)
    {
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
        if caseInsensitive, !["equalTo", "contains", "matches", "and", "or", "not"].contains(key) {
            throw WireProblem(field: field + "." + Self.caseInsensitiveKey, message: "not with \(key)")
        }
        switch key {
        case "absent":
            guard value == .bool(true) else { throw WireProblem(field: field + ".absent", message: "expected true") }
            self.init(.absent)
        case "hasExactly", "includes":
            guard repeats, depth == 1 else {
                throw WireProblem(
                    field: field + "." + key,
                    message: """
                        only for a query parameter's or a header's values, which may repeat, and not inside and, \
                        or, not
                        """)
            }
            let patterns = try Self.list(
                value, field: field + "." + key, depth: depth, parts: &parts,
                expected: "a list of patterns, one a value")
            self.init(key == "hasExactly" ? .hasExactly(patterns) : .includes(patterns))
        case "before", "after", "equalToDateTime":
            guard let text = value.stringValue else {
                throw WireProblem(field: field + "." + key, message: "expected now, now +N units, or an ISO 8601 date")
            }
            let moment: Moment
            do { moment = try Moment(text) } catch {
                throw WireProblem(field: field + "." + key, message: error.message)
            }
            switch key {
            case "before": self.init(.before(moment))
            case "after": self.init(.after(moment))
            default: self.init(.equalToDateTime(moment))
            }
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
            let patterns = try Self.list(
                value, field: field + "." + key, depth: depth, parts: &parts, expected: "a list of patterns")
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

    /// The patterns of a list operator (`and`, `or`, `hasExactly`, `includes`), one level deeper.
    private static func list(
        _ value: JSONValue, field: String, depth: Int, parts: inout Int, expected: String
    ) throws(WireProblem) -> [StringPattern] {
        guard case .array(let items) = value, !items.isEmpty else {
            throw WireProblem(field: field, message: "expected " + expected)
        }
        var patterns: [StringPattern] = []
        for (index, item) in items.enumerated() {
            patterns.append(try StringPattern(json: item, field: field + ".\(index)", depth: depth + 1, parts: &parts))
        }
        return patterns
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
        case .before(let moment): object = ["before": .string(moment.description)]
        case .after(let moment): object = ["after": .string(moment.description)]
        case .equalToDateTime(let moment): object = ["equalToDateTime": .string(moment.description)]
        case .hasExactly(let patterns): object = ["hasExactly": .array(patterns.map(\.json))]
        case .includes(let patterns): object = ["includes": .array(patterns.map(\.json))]
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
        case .not(let pattern) where pattern.operator == .absent: return "present"
        case .not(let pattern): return "not \(pattern)"
        case .before(let moment): return "a date before \(moment)"
        case .after(let moment): return "a date after \(moment)"
        case .equalToDateTime(let moment): return "the date \(moment)"
        case .hasExactly(let patterns): return "exactly (\(patterns.map(\.description).joined(separator: ", ")))"
        case .includes(let patterns): return "including (\(patterns.map(\.description).joined(separator: ", ")))"
        }
    }
}
