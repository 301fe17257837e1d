import MockStackCore

/// What sift 17 (the v5 memory adapter's matcher) throws while it builds a matcher from a
/// query whose `$or` or `$and` is not a non-empty list. v5's `filterQuery` passes such a value
/// through unchanged (FeathersSwift's `Query.or` sends one), and the error handler turns the
/// JavaScript error into a 500 GeneralError:
///
/// - `$or` checks its list is not empty, then maps it: `""` and `[]` fail the check, `null`
///   has no `length`, anything else but a list has no `map`.
/// - `$and` maps its list first, then checks it is not empty.
///
/// The query's members are read in order, as sift builds them; the first failure is thrown.
enum SiftGroupCheck {
    static func failure(in conditions: JSONObject) -> FeathersError? {
        for (key, value) in conditions {
            let message: String? =
                switch key {
                case "$or": orFailure(value)
                case "$and": andFailure(value)
                default: nil
                }
            if let message { return FeathersError(.generalError, message, converted: true) }
        }
        return nil
    }

    private static let notEmpty = "$and/$or/$nor must be a nonempty array"

    private static func orFailure(_ value: JSONValue) -> String? {
        switch value {
        case .array(let items): items.isEmpty ? notEmpty : nil
        case .string(let text) where text.isEmpty: notEmpty
        case .null: "Cannot read properties of null (reading 'length')"
        default: "this.params.map is not a function"
        }
    }

    private static func andFailure(_ value: JSONValue) -> String? {
        switch value {
        case .array(let items): items.isEmpty ? notEmpty : nil
        case .null: "Cannot read properties of null (reading 'map')"
        default: "params.map is not a function"
        }
    }
}
