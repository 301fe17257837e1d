public import MockStackCore

/// `validate`: declared FluentValidation rules run in order before another behaviour (`echo`
/// by default). Failures answer 400 with one field error per failed rule, FluentValidation's
/// error codes, messages and placeholder `meta`, the first error's code and message at the
/// top, and no stack trace (docs/servicestack.md#error-services, ThrowValidation).
public struct ValidateBehaviour: OperationBehaviour {
    public let rules: [ValidationRule]
    public let then: any OperationBehaviour

    public init(rules: [ValidationRule], then: any OperationBehaviour = EchoBehaviour()) {
        self.rules = rules
        self.then = then
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let failures = rules.compactMap { $0.failure(in: call.request) }
        guard let first = failures.first else { return try then.perform(call) }
        throw ServiceError(
            .custom(fullName: "ServiceStack.FluentValidation.ValidationException", status: 400),
            first.message, errorCode: first.errorCode, fieldErrors: failures, omitsStackTrace: true
        )
    }
}

/// One FluentValidation rule on one property.
public struct ValidationRule: Sendable {
    public enum Check: Sendable, Equatable {
        case notEmpty, notNull, empty, null, email
        case inclusiveBetween(from: Double, to: Double)
        case exclusiveBetween(from: Double, to: Double)
        case greaterThan(Double)
        case greaterThanOrEqual(Double)
        case lessThan(Double)
        case lessThanOrEqual(Double)
        case equal(String)
        case notEqual(String)
        case length(min: Int, max: Int)
        case minimumLength(Int)
        case maximumLength(Int)
        /// FluentValidation's `Matches`: some part of the value matches (`Regex.IsMatch`), compiled
        /// once when the fixture is read, by the linear-time ``Pattern``.
        case matches(Pattern)

        /// The rule names a manifest may use, as FluentValidation names its validators: one a
        /// check, and what reads a manifest switches over every one.
        public enum Name: String, CaseIterable, Sendable {
            case notEmpty = "NotEmpty", notNull = "NotNull", empty = "Empty", null = "Null", email = "Email"
            case inclusiveBetween = "InclusiveBetween", exclusiveBetween = "ExclusiveBetween"
            case greaterThan = "GreaterThan", greaterThanOrEqual = "GreaterThanOrEqual"
            case lessThan = "LessThan", lessThanOrEqual = "LessThanOrEqual"
            case equal = "Equal", notEqual = "NotEqual"
            case length = "Length", minimumLength = "MinimumLength", maximumLength = "MaximumLength"
            case matches = "Matches"
        }
    }

    /// The C# property name (`Age`).
    public var property: String
    public var check: Check
    /// Replaces FluentValidation's message (placeholders `{PropertyName}`, `{PropertyValue}` …).
    public var message: String?
    /// Replaces the error code.
    public var errorCode: String?

    public init(property: String, check: Check, message: String? = nil, errorCode: String? = nil) {
        self.property = property
        self.check = check
        self.message = message
        self.errorCode = errorCode
    }

    /// The field error when the request breaks the rule.
    func failure(in request: DTOObject) -> FieldError? {
        let value = request.value(named: property)
        let text = Self.text(value)
        let number = text.flatMap { Double($0) }
        let length = text?.count ?? 0
        var arguments: [(String, String)] = []
        let passes: Bool
        switch check {
        case .notEmpty: passes = !Self.isEmpty(value)
        case .notNull: passes = !value.isNull
        case .empty: passes = Self.isEmpty(value)
        case .null: passes = value.isNull
        case .email:
            // FluentValidation's default email check: one '@', neither first nor last. Null passes.
            passes =
                text.map {
                    $0.isEmpty || ($0.filter { $0 == "@" }.count == 1 && !$0.hasPrefix("@") && !$0.hasSuffix("@"))
                } ?? true
        case .inclusiveBetween(let from, let to):
            arguments = [("From", Self.format(from)), ("To", Self.format(to)), ("Value", text ?? "")]
            passes = number.map { $0 >= from && $0 <= to } ?? value.isNull
        case .exclusiveBetween(let from, let to):
            arguments = [("From", Self.format(from)), ("To", Self.format(to)), ("Value", text ?? "")]
            passes = number.map { $0 > from && $0 < to } ?? value.isNull
        case .greaterThan(let limit), .greaterThanOrEqual(let limit), .lessThan(let limit), .lessThanOrEqual(let limit):
            arguments = [("ComparisonValue", Self.format(limit))]
            guard let number else {
                passes = value.isNull
                break
            }
            switch check {
            case .greaterThan: passes = number > limit
            case .greaterThanOrEqual: passes = number >= limit
            case .lessThan: passes = number < limit
            default: passes = number <= limit
            }
        case .equal(let expected):
            arguments = [("ComparisonValue", expected)]
            passes = text == expected
        case .notEqual(let unexpected):
            arguments = [("ComparisonValue", unexpected)]
            passes = text != unexpected
        case .length(let min, let max):
            arguments = [("MinLength", String(min)), ("MaxLength", String(max)), ("TotalLength", String(length))]
            passes = text == nil || (length >= min && (max < 0 || length <= max))
        case .minimumLength(let min):
            arguments = [("MinLength", String(min)), ("TotalLength", String(length))]
            passes = text == nil || length >= min
        case .maximumLength(let max):
            arguments = [("MaxLength", String(max)), ("TotalLength", String(length))]
            passes = text == nil || length <= max
        case .matches(let pattern):
            arguments = [("RegularExpression", pattern.source)]
            passes = text.map { pattern.occurs(in: $0) } ?? true
        }
        guard !passes else { return nil }
        let displayName = Self.displayName(property)
        var meta = arguments
        meta.append(("PropertyName", displayName))
        if let text, !value.isNull { meta.append(("PropertyValue", text)) }
        var rendered = message ?? defaultMessage
        for (key, replacement) in meta { rendered = rendered.replacing("{\(key)}", with: replacement) }
        rendered = rendered.replacing("{PropertyValue}", with: text ?? "")
        return FieldError(
            errorCode: errorCode ?? code, fieldName: property, message: rendered,
            meta: meta.map { (key: $0.0, value: $0.1) })
    }

    /// ServiceStack's error code for the validator: its name without `Validator`.
    var code: String {
        switch check {
        case .notEmpty: "NotEmpty"
        case .notNull: "NotNull"
        case .empty: "Empty"
        case .null: "Null"
        case .email: "Email"
        case .inclusiveBetween: "InclusiveBetween"
        case .exclusiveBetween: "ExclusiveBetween"
        case .greaterThan: "GreaterThan"
        case .greaterThanOrEqual: "GreaterThanOrEqual"
        case .lessThan: "LessThan"
        case .lessThanOrEqual: "LessThanOrEqual"
        case .equal: "Equal"
        case .notEqual: "NotEqual"
        case .length: "Length"
        case .minimumLength: "MinimumLength"
        case .maximumLength: "MaximumLength"
        case .matches: "RegularExpression"
        }
    }

    /// FluentValidation's English messages.
    var defaultMessage: String {
        switch check {
        case .notEmpty, .notNull: "'{PropertyName}' must not be empty."
        case .empty, .null: "'{PropertyName}' must be empty."
        case .email: "'{PropertyName}' is not a valid email address."
        case .inclusiveBetween: "'{PropertyName}' must be between {From} and {To}. You entered {PropertyValue}."
        case .exclusiveBetween:
            "'{PropertyName}' must be between {From} and {To} (exclusive). You entered {PropertyValue}."
        case .greaterThan: "'{PropertyName}' must be greater than '{ComparisonValue}'."
        case .greaterThanOrEqual: "'{PropertyName}' must be greater than or equal to '{ComparisonValue}'."
        case .lessThan: "'{PropertyName}' must be less than '{ComparisonValue}'."
        case .lessThanOrEqual: "'{PropertyName}' must be less than or equal to '{ComparisonValue}'."
        case .equal: "'{PropertyName}' must be equal to '{ComparisonValue}'."
        case .notEqual: "'{PropertyName}' must not be equal to '{ComparisonValue}'."
        case .length:
            """
            '{PropertyName}' must be between {MinLength} and {MaxLength} characters. You entered {TotalLength} \
            characters.
            """
        case .minimumLength:
            """
            The length of '{PropertyName}' must be at least {MinLength} characters. You entered {TotalLength} \
            characters.
            """
        case .maximumLength:
            """
            The length of '{PropertyName}' must be {MaxLength} characters or fewer. You entered {TotalLength} \
            characters.
            """
        case .matches: "'{PropertyName}' is not in the correct format."
        }
    }

    /// FluentValidation's `NotEmpty`: null, blank text, an empty collection or a value type's default.
    static func isEmpty(_ value: DTOValue) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text.allSatisfy(\.isWhitespace)
        case .list(let elements): elements.isEmpty
        case .map(let entries): entries.isEmpty
        case .bytes(let bytes, _): bytes.isEmpty
        case .number(let number): number.doubleValue == 0
        case .bool(let flag): !flag
        case .dateTime(let date): date.ticks == DateTimeValue.minValue.ticks
        case .timeSpan(let span): span.ticks == 0
        case .guid(let hex): hex.allSatisfy { $0 == "0" }
        default: false
        }
    }

    static func text(_ value: DTOValue) -> String? {
        switch value {
        case .null: nil
        case .dateTime(let date): date.isoText
        case .timeSpan(let span): span.xsdText
        case .list(let elements): elements.compactMap(\.text).joined(separator: ",")
        default: value.text
        }
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// FluentValidation's display name: PascalCase split into words (`EmailAddress` →
    /// `Email Address`, `URLPath` → `URL Path`).
    static func displayName(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    result.append(" ")
                }
            }
            result.append(character)
        }
        return result
    }
}
