import MockStackCore

/// `include=COUNT(*) Total, MAX(ViewCount), AVG(ViewCount) Views`: aggregate functions over the
/// matching rows (before paging), returned in `meta` as text, keyed by alias or as written.
/// `Total` asks for the total: it is `COUNT(*)`, whose entry AutoQuery then drops again.
struct AutoQueryAggregates {
    enum Function: String {
        case avg = "AVG"
        case count = "COUNT"
        case first = "FIRST"
        case last = "LAST"
        case max = "MAX"
        case min = "MIN"
        case sum = "SUM"
    }

    struct Aggregate {
        var function: Function
        /// nil for `*`.
        var field: String?
        var key: String
    }

    let aggregates: [Aggregate]
    /// `Total` was asked for by that name (AutoQuery renames it `COUNT`).
    let asksTotalByName: Bool
    /// `Total`, or a `COUNT` of `*` (aliased or not), was asked for: the total is computed.
    let asksTotal: Bool

    init(_ include: [String], fields: [String]) throws(ServiceError) {
        let resolver = QueryParameterResolver(fields: fields)
        var aggregates: [Aggregate] = []
        var asksTotalByName = false
        var asksTotal = false
        for item in include {
            let text = item.trimmingASCIISpace()
            let name: Substring
            var argument: Substring = "*"
            var alias: Substring = ""
            if let open = text.firstIndex(of: "(") {
                guard let close = text.firstIndex(of: ")"), open < close else { continue }
                name = text[..<open].trimmingASCIISpace()
                argument = text[text.index(after: open)..<close].trimmingASCIISpace()
                alias = text[text.index(after: close)...].trimmingASCIISpace()
            } else {
                // A bare name: `Total`, or a function of `*` (`COUNT`).
                name = text
            }
            let function: Function
            let written: String
            if name.equalsIgnoringASCIICase("Total") {
                asksTotalByName = true
                (function, written) = (.count, "COUNT")
            } else if let known = Function(rawValue: name.uppercased()) {
                (function, written) = (known, String(name))
            } else {
                continue
            }
            if function == .count, argument.isEmpty || argument == "*" { asksTotal = true }
            var field: String?
            if argument != "*", !argument.isEmpty {
                guard let found = resolver.field(named: argument) else {
                    throw ServiceError(.argument, "Could not find field \(argument)")
                }
                field = found
            }
            // Keyed by its alias, else as AutoQuery writes the command back (`COUNT(*)` for `Total`).
            let key = !alias.isEmpty ? String(alias) : text.contains("(") ? String(text) : written + "(*)"
            // One entry per key, as the response's dictionary keeps.
            if !aggregates.contains(where: { $0.key == key }) {
                aggregates.append(Aggregate(function: function, field: field, key: key))
            }
        }
        self.aggregates = aggregates
        self.asksTotalByName = asksTotalByName
        self.asksTotal = asksTotal
    }

    /// The `meta` of a query's answer, as AutoQuery's response filter leaves it: the aggregates'
    /// entries over the `count` matching rows (`rows` is asked for only when an aggregate reads a
    /// field). Where the total is computed (`includeTotal`, or asked for), the `COUNT(*)` entry is
    /// dropped unless `COUNT(*)` itself was asked for rather than `Total`, and an empty `meta`
    /// then becomes nil, left out of the answer; otherwise it stays, `{}` when empty.
    func meta(count: Int, rows: () -> [DTOObject], includeTotal: Bool) -> [DTOMapEntry]? {
        let matching = aggregates.contains { $0.field != nil } ? rows() : []
        var entries = aggregates.map { aggregate in
            DTOMapEntry(
                key: aggregate.key,
                value: .string(aggregate.field == nil ? String(count) : value(of: aggregate, over: matching)))
        }
        guard includeTotal || asksTotal else { return entries }
        if asksTotalByName || !asksTotal {
            entries.removeAll { $0.key.equalsIgnoringASCIICase("COUNT(*)") }
            if entries.isEmpty { return nil }
        }
        return entries
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
            let numbers = values.compactMap { value -> Double? in
                if case .number(let number) = value { number.doubleValue } else { nil }
            }
            guard !numbers.isEmpty else { return "" }
            let sum = numbers.reduce(0, +)
            let result = aggregate.function == .sum ? sum : sum / Double(numbers.count)
            return result == result.rounded() && abs(result) < 1e15 ? String(Int64(result)) : String(result)
        }
    }
}
