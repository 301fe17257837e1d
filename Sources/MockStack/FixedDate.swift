import MockStackServiceStack

/// The `Date:` generated DTO files carry instead of the time, for golden files: `serve
/// --fixed-date` and `codegen --fixed-date` read and refuse it the same way.
enum FixedDate {
    /// Throws unless `date` is absent or an ISO-8601 date.
    static func check(_ date: String?) throws(MockStackError) {
        guard let date, DateTimeValue(parsing: date) == nil else { return }
        throw MockStackError("--fixed-date \(date): not an ISO-8601 date (2025-11-21T22:15:03Z)")
    }
}
