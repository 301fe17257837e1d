import MockStackCore

/// `include=COUNT(*) Total, MAX(ViewCount), AVG(ViewCount) Views`: aggregate functions over the
/// matching rows (before paging), returned in `meta` as text, keyed by alias or as written.
/// `Total` / `COUNT` / `COUNT(*)` without an alias only ask for the total and add no entry.
struct AutoQueryAggregates {
    enum Function: String {
        case avg = "AVG", count = "COUNT", first = "FIRST", last = "LAST", max = "MAX", min = "MIN", sum = "SUM"
    }

    struct Aggregate {
        var function: Function
        /// nil for `*`.
        var field: String?
        var key: String
    }

    let aggregates: [Aggregate]

    init(_ include: [String], fields: [String]) throws(ServiceError) {
        let resolver = QueryParameterResolver(fields: fields)
        var aggregates: [Aggregate] = []
        for item in include {
            let text = item.trimmingASCIISpace()
            guard let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")"), open < close,
                  let function = Function(rawValue: text[..<open].trimmingASCIISpace().uppercased()) else { continue }
            let argument = text[text.index(after: open)..<close].trimmingASCIISpace()
            let alias = text[text.index(after: close)...].trimmingASCIISpace()
            var field: String?
            if argument != "*" {
                guard let found = resolver.field(named: argument) else {
                    throw ServiceError(.argument, "Could not find field \(argument)")
                }
                field = found
            }
            // A bare COUNT(*) only asks for the total (its meta entry is dropped).
            if function == .count, field == nil, alias.isEmpty { continue }
            let key = alias.isEmpty ? String(text) : String(alias)
            // One entry per key, as the response's dictionary keeps.
            if !aggregates.contains(where: { $0.key == key }) { aggregates.append(Aggregate(function: function, field: field, key: key)) }
        }
        self.aggregates = aggregates
    }

    /// Whether the query asked for no aggregate (a bare `COUNT(*)` only asks for the total).
    var isEmpty: Bool { aggregates.isEmpty }

    /// The meta entries for the matching rows.
    func evaluate(over rows: [DTOObject]) -> [DTOMapEntry] {
        aggregates.map { aggregate in
            DTOMapEntry(key: aggregate.key, value: .string(value(of: aggregate, over: rows)))
        }
    }

    private func value(of aggregate: Aggregate, over rows: [DTOObject]) -> String {
        guard let field = aggregate.field else { return String(rows.count) }
        let values = rows.map { $0[field] }.filter { !$0.isNull }
        switch aggregate.function {
        case .count: return String(values.count)
        case .first: return values.first.map(SQLOrdering.text(of:)) ?? ""
        case .last: return values.last.map(SQLOrdering.text(of:)) ?? ""
        case .min: return values.min { (SQLOrdering.compare($0, $1) ?? 0) < 0 }.map(SQLOrdering.text(of:)) ?? ""
        case .max: return values.max { (SQLOrdering.compare($0, $1) ?? 0) < 0 }.map(SQLOrdering.text(of:)) ?? ""
        case .sum, .avg:
            let numbers = values.compactMap { value -> Double? in if case .number(let number) = value { number.doubleValue } else { nil } }
            guard !numbers.isEmpty else { return "" }
            let sum = numbers.reduce(0, +)
            let result = aggregate.function == .sum ? sum : sum / Double(numbers.count)
            return result == result.rounded() && abs(result) < 1e15 ? String(Int64(result)) : String(result)
        }
    }
}
