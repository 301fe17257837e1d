/// AutoQuery's implicit conventions (docs/servicestack.md#autoquery): how a parameter name around a field name
/// (`AgeAbove`, `MinAge`, `NameContains`, `>Age`) picks the comparison.
public struct QueryConvention: Sendable, Equatable {
    /// The comparison a convention applies.
    public enum Operator: Sendable, Equatable {
        case equal, notEqual
        case greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual
        /// `UPPER(f) LIKE UPPER(v)`, the value used as given.
        case like
        /// `LIKE 'v%'`, `'%v%'`, `'%v'`, case-insensitive on hosts that keep `UPPER` (TechStacks).
        case startsWith, contains, endsWith
        case `in`
        /// `f BETWEEN v1 AND v2`.
        case between
        /// `v & f = v` and `v & f > 0`.
        case hasAll, hasAny
        case isNull, isNotNull
        /// An array column sharing a value with the list (PostgreSQL's `&&`); only for
        /// properties the manifest declares, no convention spells it.
        case overlaps

        /// Whether the value is a list (`1,2,3` or `[1,2,3]`).
        public var takesList: Bool {
            switch self {
            case .in, .between, .overlaps: true
            default: false
            }
        }

        /// Whether the comparison reads no value at all.
        public var takesNoValue: Bool { self == .isNull || self == .isNotNull }
    }

    /// The text written around the field name.
    public var affix: String
    /// `X%`: written before the field (`MinAge`).
    public var isPrefix: Bool
    /// `%X`: written after the field (`AgeAbove`).
    public var isSuffix: Bool
    public var `operator`: Operator

    init(_ pattern: String, _ op: Operator) {
        isPrefix = pattern.hasSuffix("%")
        isSuffix = pattern.hasPrefix("%")
        affix = String(pattern.drop { $0 == "%" }.reversed().drop { $0 == "%" }.reversed())
        self.operator = op
    }

    /// The implicit conventions in the order AutoQuery registers them (its table, read
    /// row by row). Prefix and suffix matching each try them in this order.
    public static let implicit: [QueryConvention] = [
        .init("%Above%", .greaterThan), .init("Begin%", .greaterThan), .init("%Beyond%", .greaterThan),
        .init("%Over%", .greaterThan), .init("%OlderThan", .greaterThan), .init("%After%", .greaterThan),
        .init("OnOrAfter%", .greaterThanOrEqual), .init("%From%", .greaterThanOrEqual),
        .init("Since%", .greaterThanOrEqual),
        .init("Start%", .greaterThanOrEqual), .init("%Higher%", .greaterThanOrEqual),
        .init("Min%", .greaterThanOrEqual),
        .init("Minimum%", .greaterThanOrEqual), .init(">%", .greaterThanOrEqual), .init("%>", .greaterThan),
        .init("%!", .notEqual), .init("<>%", .notEqual), .init("%GreaterThanOrEqualTo%", .greaterThanOrEqual),
        .init("%GreaterThan%", .greaterThan), .init("%LessThan%", .lessThan),
        .init("%LessThanOrEqualTo%", .lessThanOrEqual),
        .init("%NotEqualTo", .notEqual), .init("Behind%", .lessThan), .init("%Below%", .lessThan),
        .init("%Under%", .lessThan), .init("%Lower%", .lessThan), .init("%Before%", .lessThan),
        .init("%YoungerThan", .lessThan), .init("OnOrBefore%", .lessThanOrEqual), .init("End%", .lessThanOrEqual),
        .init("Stop%", .lessThanOrEqual), .init("To%", .lessThanOrEqual), .init("Until%", .lessThanOrEqual),
        .init("Max%", .lessThanOrEqual), .init("Maximum%", .lessThanOrEqual), .init("%<", .lessThanOrEqual),
        .init("<%", .lessThan), .init("%Like%", .like), .init("%In", .in),
        .init("%Ids", .in), .init("%Between%", .between), .init("%HasAll", .hasAll),
        .init("%HasAny", .hasAny), .init("%IsNull", .isNull), .init("%IsNotNull", .isNotNull),
    ]

    /// The string conventions, tried before the implicit ones as suffixes.
    public static let strings: [QueryConvention] = [
        .init("%StartsWith", .startsWith), .init("%Contains", .contains), .init("%EndsWith", .endsWith),
    ]
}
