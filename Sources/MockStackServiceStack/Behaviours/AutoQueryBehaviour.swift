import MockStackCore

/// `autoQuery`: an AutoQuery service over a JSON data set of the app (docs/servicestack.md#autoquery). The request
/// DTO's own properties become conditions first (a collection is `IN`), then every other query
/// or form parameter by the naming conventions; `Skip`, `Take`, `OrderBy`, `OrderByDesc`,
/// `Fields` and `Include` steer the page. The answer is the operation's `QueryResponse<T>`.
public struct AutoQueryBehaviour: OperationBehaviour {
    public let engine: AutoQueryEngine
    public let builder: QueryConditionBuilder
    public let defaultTerm: AutoQuery.Term
    /// Request properties whose condition the manifest spells out, by lower-cased name (what
    /// `[QueryDbField]` does on a real DTO).
    public let declarations: [String: Declaration]
    /// Whether rows are written as they are: every property of the response's row type that
    /// the model also has is of the same type (`TechnologyView` over `Technology`), so rows need
    /// no conversion into it. Worked out once the return type is known.
    let rowsFitResults: Bool

    /// A request property's own field, comparison and term.
    public struct Declaration: Sendable {
        public var field: String
        public var `operator`: QueryConvention.Operator
        /// Nil: the query's default term.
        public var term: AutoQuery.Term?

        public init(field: String, operator: QueryConvention.Operator, term: AutoQuery.Term?) {
            self.field = field
            self.operator = `operator`
            self.term = term
        }
    }

    /// The properties of `QueryBase` (and `QueryDb<T>`), which steer the query rather than filter.
    static let queryOptions: Set<String> = ["skip", "take", "orderby", "orderbydesc", "include", "fields", "meta"]

    public init(
        engine: AutoQueryEngine, builder: QueryConditionBuilder, defaultTerm: AutoQuery.Term,
        declarations: [String: Declaration] = [:]
    ) {
        self.init(
            engine: engine, builder: builder, defaultTerm: defaultTerm, declarations: declarations,
            rowsFitResults: false)
    }

    private init(
        engine: AutoQueryEngine, builder: QueryConditionBuilder, defaultTerm: AutoQuery.Term,
        declarations: [String: Declaration], rowsFitResults: Bool
    ) {
        self.engine = engine
        self.builder = builder
        self.defaultTerm = defaultTerm
        self.declarations = declarations
        self.rowsFitResults = rowsFitResults
    }

    public func prepared(returnShape: ValueShape?, coercion: ValueCoercion) -> any OperationBehaviour {
        guard let returnShape, case .object(let reference) = returnShape.unwrapped,
            let response = coercion.catalog.object(reference),
            case .list(let element)? = response.property(named: "Results")?.shape.unwrapped,
            case .object(let rowReference) = element.unwrapped, let rowType = coercion.catalog.object(rowReference)
        else { return self }
        let fits = rowType.properties.allSatisfy { property in
            builder.fieldShapes[property.name].map { $0.unwrapped == property.shape.unwrapped } ?? true
        }
        return AutoQueryBehaviour(
            engine: engine, builder: builder, defaultTerm: defaultTerm, declarations: declarations, rowsFitResults: fits
        )
    }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        var query = AutoQuery(defaultTerm: defaultTerm)
        let request = call.request
        var typedNames: Set<String> = []
        for property in call.operation.requestType.properties {
            typedNames.insert(property.name.lowercased())
            let value = request[property.name]
            let name = property.name.lowercased()
            if Self.queryOptions.contains(name) { continue }
            let declared = declarations[name]
            guard
                let term = declared.map({ QueryTerm(field: $0.field, operator: $0.operator) })
                    ?? builder.resolver.resolve(property.name),
                !Self.isUnset(value)
            else { continue }
            // Typed values are read as the field's type too (a `string ViewCountAbove` compares
            // numbers); an array column's values as its elements.
            var shape = builder.fieldShapes[term.field] ?? .any
            if term.operator == .overlaps, case .list(let element) = shape.unwrapped { shape = element }
            let condition: QueryCondition
            if case .list(let items) = value {
                // A typed collection is `IN` unless it names another list convention.
                let op = term.operator.takesList ? term.operator : .in
                try QueryConditionBuilder.checkLimits(term, listCount: items.count)
                if op == .between, items.count != 2 { throw ServiceError(.argument, "\(term.field) requires 2 values") }
                condition = QueryCondition(
                    field: term.field, operator: op,
                    values: try items.map { item throws(ServiceError) in
                        try Self.read(item, as: shape, field: term.field, coercion: builder.coercion)
                    })
            } else {
                if term.operator.takesList {
                    throw ServiceError(.argument, "\(property.name) expects a list of values")
                }
                try QueryConditionBuilder.checkLimits(term, patternLength: value.text?.count ?? 0)
                condition = QueryCondition(
                    field: term.field, operator: term.operator,
                    values: term.operator.takesNoValue
                        ? [] : [try Self.read(value, as: shape, field: term.field, coercion: builder.coercion)])
            }
            query.conditions.append((condition, declared?.term ?? defaultTerm))
        }
        for (name, value) in call.input.query + call.input.form where !typedNames.contains(name.lowercased()) {
            if let condition = try builder.condition(name: name, value: value) {
                query.conditions.append((condition, defaultTerm))
            }
        }
        query.skip = request.value(named: "Skip").intValue ?? call.input.parameter("skip").flatMap { Int($0) }
        query.take = request.value(named: "Take").intValue ?? call.input.parameter("take").flatMap { Int($0) }
        query.orderBy = Self.list(request.value(named: "OrderBy")) ?? call.input.parameter("orderBy").map(Self.split)
        query.orderByDesc =
            Self.list(request.value(named: "OrderByDesc")) ?? call.input.parameter("orderByDesc").map(Self.split)
        query.fields = request.value(named: "Fields").text ?? call.input.parameter("fields")
        query.include = (request.value(named: "Include").text ?? call.input.parameter("include")).map(Self.split) ?? []
        // `orderBy=Random` differs from request to request, as the database's RANDOM() does
        // (the system generator is asked only then: it costs a system call).
        if ((query.orderBy ?? []) + (query.orderByDesc ?? [])).contains(where: { $0.equalsIgnoringASCIICase("Random") })
        {
            var generator = SystemRandomNumberGenerator()
            query.randomSeed = generator.next()
        }

        let result = try engine.run(query)
        var response = DTOObject()
        response["Offset"] = .number(JSONNumber(result.offset))
        response["Total"] = .number(JSONNumber(result.total))
        response["Results"] = .list(result.rows.map { .object($0) })
        if let meta = result.meta { response["Meta"] = .map(meta) }
        guard !rowsFitResults, case .object(var conformed) = try call.conformed(.object(response)) else {
            response.leftOutWhenUnset = ["Meta"]
            return ServiceResult(.dto(.object(response)))
        }
        // AutoQuery sets an empty `Meta` to null: it is not written as `{}`.
        conformed.leftOutWhenUnset = ["Meta"]
        return ServiceResult(.dto(.object(conformed)))
    }

    private static func read(
        _ value: DTOValue, as shape: ValueShape, field: String, coercion: ValueCoercion
    ) throws(ServiceError) -> DTOValue {
        if shape.unwrapped == .string, let text = value.text { return .string(text) }
        guard let converted = coercion.conform(value, to: shape) else {
            throw ServiceError(.argument, "'\(value.text ?? "")' is an Invalid value for '\(field)'")
        }
        return converted
    }

    private static func isUnset(_ value: DTOValue) -> Bool {
        switch value {
        case .null: true
        case .list(let items): items.isEmpty
        case .string(let text): text.isEmpty
        default: false
        }
    }

    private static func list(_ value: DTOValue) -> [String]? {
        switch value {
        case .list(let items): items.compactMap(\.text)
        case .string(let text): split(text)
        default: nil
        }
    }

    static func split(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0.trimmingASCIISpace()) }.filter { !$0.isEmpty }
    }
}
