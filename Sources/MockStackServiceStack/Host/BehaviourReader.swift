import MockStackCore

/// Reads an operation's behaviour from the manifest, reporting every mistake with its pointer.
struct BehaviourReader {
    let manifest: ManifestReader
    /// Reads data sets as the app's types (`autoQuery`, `techStacks`), each file once.
    let dataSets: DataSetLoader

    var coercion: ValueCoercion { dataSets.coercion }

    static let commonKeys: Set<String> = [
        "behaviour", "serializer", "service", "description", "cacheSeconds", "unboundRouteVariables",
    ]

    /// The behaviour configured at `pointer` (`/operations/Hello`), or nil: after reporting why
    /// not, or when the entry names none (it sets only common keys, and the operation keeps its
    /// default behaviour).
    func behaviour(at pointer: String, for operation: MetadataOperation) -> (any OperationBehaviour)? {
        guard let entry = manifest.value(at: pointer)?.objectValue else {
            manifest.report(
                "expected an object with a 'behaviour', found \(manifest.value(at: pointer)?.typeName ?? "nothing")",
                at: pointer)
            return nil
        }
        guard entry["behaviour"] != nil else {
            manifest.rejectUnknownKeys(at: pointer, allowed: Self.commonKeys)
            return nil
        }
        guard let name = manifest.string(pointer + "/behaviour", required: true) else { return nil }
        guard let known = BehaviourName(rawValue: name) else {
            let names = BehaviourName.allCases.map(\.rawValue).joined(separator: ", ")
            manifest.report("unknown behaviour '\(name)' (expected one of: \(names))", at: pointer + "/behaviour")
            return nil
        }
        if known.needsServerEvents, manifest.value(at: "/serverEvents") == nil {
            manifest.report(
                "behaviour '\(name)' publishes Server Events: add \"serverEvents\": {} to the manifest",
                at: pointer + "/behaviour")
            return nil
        }
        let keys: Set<String>
        let behaviour: (any OperationBehaviour)?
        switch known {
        case .echo: (keys, behaviour) = ([], EchoBehaviour())
        case .void: (keys, behaviour) = ([], VoidBehaviour())
        case .throwType: (keys, behaviour) = ([], ThrowTypeBehaviour())
        case .template: (keys, behaviour) = (["response", "text", "contentType", "headers"], template(at: pointer))
        case .rawBody:
            (keys, behaviour) = (
                ["contentType", "headers"],
                RawBodyBehaviour(
                    contentType: manifest.string(pointer + "/contentType").map(TemplateString.init),
                    headers: headers(at: pointer + "/headers"))
            )
        case .error:
            (keys, behaviour) = (
                ["exception", "status", "errorCode", "message", "errors", "returns", "stackTrace"], error(at: pointer)
            )
        case .validate: (keys, behaviour) = (["rules", "then"], validate(at: pointer, for: operation))
        case .upload: (keys, behaviour) = (["format", "texts", "requiredFile"], upload(at: pointer))
        case .authenticate: (keys, behaviour) = ([], AuthenticateBehaviour())
        case .accessToken: (keys, behaviour) = ([], AccessTokenBehaviour())
        case .createJwt: (keys, behaviour) = ([], CreateTokenBehaviour(kind: .access))
        case .createRefreshJwt: (keys, behaviour) = ([], CreateTokenBehaviour(kind: .refresh))
        case .invalidateToken: (keys, behaviour) = ([], InvalidateTokenBehaviour())
        case .autoQuery:
            (keys, behaviour) = (
                ["data", "model", "term", "maxLimit", "includeTotal", "properties"],
                autoQuery(at: pointer, for: operation)
            )
        case .techStacks: (keys, behaviour) = (Self.techStacksKeys, techStacks(at: pointer))
        case .chatToChannel: (keys, behaviour) = ([], ChatToChannelBehaviour())
        case .rawToChannel: (keys, behaviour) = ([], RawToChannelBehaviour())
        case .objectToChannel: (keys, behaviour) = ([], ObjectToChannelBehaviour())
        case .resetServerEvents: (keys, behaviour) = ([], ResetServerEventsBehaviour())
        case .chatHistory: (keys, behaviour) = ([], ChatHistoryBehaviour())
        case .clearChatHistory: (keys, behaviour) = ([], ClearChatHistoryBehaviour())
        case .chatCompletion:
            (keys, behaviour) = (
                ["models", "content", "id", "created", "systemFingerprint"], chatCompletion(at: pointer)
            )
        }
        manifest.rejectUnknownKeys(at: pointer, allowed: Self.commonKeys.union(keys))
        TemplateCheck(manifest: manifest, catalog: coercion.catalog, operation: operation).check(behaviourAt: pointer)
        return behaviour
    }

    /// `"servicestack-text"` or `"system-text-json"`.
    func dialect(at pointer: String) -> SerializerSettings.Dialect? {
        Self.dialect(in: manifest, at: pointer)
    }

    static func dialect(in manifest: ManifestReader, at pointer: String) -> SerializerSettings.Dialect? {
        switch manifest.string(pointer) {
        case nil: return nil
        case "servicestack-text"?: return .serviceStackText
        case "system-text-json"?: return .systemTextJson
        case let other?:
            manifest.report(
                "unknown serializer '\(other)' (expected servicestack-text or system-text-json)", at: pointer)
            return nil
        }
    }

    private func template(at pointer: String) -> (any OperationBehaviour)? {
        let headers = headers(at: pointer + "/headers")
        if let text = manifest.string(pointer + "/text") {
            let contentType = manifest.string(pointer + "/contentType") ?? MediaType.text
            return TemplateBehaviour(output: .text(TemplateString(text), contentType: contentType), headers: headers)
        }
        guard let response = manifest.value(at: pointer + "/response") else {
            manifest.report("a template needs a 'response' (JSON) or a 'text'", at: pointer)
            return nil
        }
        return TemplateBehaviour(output: .json(ResponseTemplate(json: response)), headers: headers)
    }

    private func headers(at pointer: String) -> [(name: String, value: TemplateString)] {
        let pairs = manifest.stringMap(pointer)
        for (name, value) in pairs {
            // A template's literal text; what it fills in from a request is the head's to guard.
            if let problem = FramingHeaders.problem(with: name)
                ?? ConfiguredHeaderText.problem(name: name, value: value)
            {
                manifest.report(problem, at: pointer + "/" + name)
            }
        }
        return pairs.filter { !FramingHeaders.contains($0.0) }.map { (name: $0.0, value: TemplateString($0.1)) }
    }

    private func error(at pointer: String) -> (any OperationBehaviour)? {
        let exception = manifest.string(pointer + "/exception") ?? "HttpError"
        let status =
            manifest.value(at: pointer + "/status").map { $0.intValue.map(String.init) ?? $0.stringValue ?? "" }
            ?? (exception == "HttpError" ? "500" : "")
        if let fixed = manifest.value(at: pointer + "/status")?.intValue, !HTTPStatus.finalStatuses.contains(fixed) {
            manifest.report("\(fixed) is out of range 200...599", at: pointer + "/status")
        }
        var fieldErrors: [FieldError] = []
        for index in manifest.array(pointer + "/errors").indices {
            let at = pointer + "/errors/\(index)"
            manifest.rejectUnknownKeys(at: at, allowed: ["errorCode", "fieldName", "message"])
            guard let code = manifest.string(at + "/errorCode", required: true),
                let field = manifest.string(at + "/fieldName", required: true),
                let message = manifest.string(at + "/message", required: true)
            else { continue }
            fieldErrors.append(FieldError(errorCode: code, fieldName: field, message: message))
        }
        return ErrorBehaviour(
            exception: exception,
            status: TemplateString(status),
            errorCode: manifest.string(pointer + "/errorCode").map(TemplateString.init),
            message: TemplateString(manifest.string(pointer + "/message") ?? exception),
            fieldErrors: fieldErrors,
            returnsStatus: flag(pointer + "/returns") ?? false,
            omitsStackTrace: !(flag(pointer + "/stackTrace") ?? true)
        )
    }

    private func validate(at pointer: String, for operation: MetadataOperation) -> (any OperationBehaviour)? {
        var rules: [ValidationRule] = []
        let properties = Set(operation.request.properties.map { $0.name.lowercased() })
        for index in manifest.array(pointer + "/rules").indices {
            let at = pointer + "/rules/\(index)"
            manifest.rejectUnknownKeys(
                at: at,
                allowed: ["property", "rule", "from", "to", "value", "min", "max", "pattern", "message", "errorCode"])
            guard let property = manifest.string(at + "/property", required: true),
                let ruleName = manifest.string(at + "/rule", required: true)
            else { continue }
            if !properties.contains(property.lowercased()) {
                manifest.report("\(operation.name) has no property '\(property)'", at: at + "/property")
            }
            guard let check = check(named: ruleName, at: at) else { continue }
            rules.append(
                ValidationRule(
                    property: property, check: check, message: manifest.string(at + "/message"),
                    errorCode: manifest.string(at + "/errorCode")))
        }
        var then: any OperationBehaviour = EchoBehaviour()
        if manifest.value(at: pointer + "/then") != nil {
            guard let next = behaviour(at: pointer + "/then", for: operation) else { return nil }
            then = next
        }
        return ValidateBehaviour(rules: rules, then: then)
    }

    private func check(named name: String, at pointer: String) -> ValidationRule.Check? {
        func number(_ key: String) -> Double? {
            guard let value = manifest.value(at: pointer + "/" + key) else {
                manifest.report("rule '\(name)' needs '\(key)'", at: pointer)
                return nil
            }
            guard case .number(let number) = value else {
                manifest.report("expected a number, found \(value.typeName)", at: pointer + "/" + key)
                return nil
            }
            return number.doubleValue
        }
        func text(_ key: String) -> String? { manifest.string(pointer + "/" + key, required: true) }
        guard let checked = ValidationRule.Check.Name(rawValue: name) else {
            let names = ValidationRule.Check.Name.allCases.map(\.rawValue).joined(separator: ", ")
            manifest.report("unknown rule '\(name)' (expected one of: \(names))", at: pointer + "/rule")
            return nil
        }
        switch checked {
        case .notEmpty: return .notEmpty
        case .notNull: return .notNull
        case .empty: return .empty
        case .null: return .null
        case .email: return .email
        case .inclusiveBetween:
            return number("from").flatMap { from in number("to").map { .inclusiveBetween(from: from, to: $0) } }
        case .exclusiveBetween:
            return number("from").flatMap { from in number("to").map { .exclusiveBetween(from: from, to: $0) } }
        case .greaterThan: return number("value").map { .greaterThan($0) }
        case .greaterThanOrEqual: return number("value").map { .greaterThanOrEqual($0) }
        case .lessThan: return number("value").map { .lessThan($0) }
        case .lessThanOrEqual: return number("value").map { .lessThanOrEqual($0) }
        case .equal: return text("value").map { .equal($0) }
        case .notEqual: return text("value").map { .notEqual($0) }
        case .length:
            return number("min").flatMap { min in number("max").map { .length(min: Int(min), max: Int($0)) } }
        case .minimumLength: return number("min").map { .minimumLength(Int($0)) }
        case .maximumLength: return number("max").map { .maximumLength(Int($0)) }
        case .matches:
            guard let source = text("pattern") else { return nil }
            do throws(PatternError) {
                return .matches(try Pattern(source))
            } catch {
                manifest.report("'\(source)': \(error.description)", at: pointer + "/pattern")
                return nil
            }
        }
    }

    private func upload(at pointer: String) -> (any OperationBehaviour)? {
        let requiredFile = manifest.string(pointer + "/requiredFile")
        switch manifest.string(pointer + "/format", required: true) {
        case "speechToText"?: return UploadBehaviour(format: .speechToText, requiredFile: requiredFile ?? "Audio")
        case "transcript"?:
            let texts = manifest.array(pointer + "/texts").compactMap(\.stringValue)
            if texts.isEmpty {
                manifest.report("a transcript needs 'texts': a non-empty array of strings", at: pointer)
            }
            return UploadBehaviour(format: .transcript(texts), requiredFile: requiredFile)
        case "fileList"?: return UploadBehaviour(format: .fileList, requiredFile: requiredFile)
        case "echo"?: return UploadBehaviour(format: .echo, requiredFile: requiredFile)
        case let other?:
            manifest.report(
                "unknown upload format '\(other)' (expected speechToText, transcript, fileList or echo)",
                at: pointer + "/format")
            return nil
        case nil: return nil
        }
    }

    /// `{"behaviour": "chatCompletion", "models": ["llama3.1:8b"], "content": "…", "id": "chatcmpl-1",
    ///   "created": 1732579200}`: `created` may be `"now"` (the request's moment); by default 0.
    private func chatCompletion(at pointer: String) -> (any OperationBehaviour)? {
        let models = manifest.array(pointer + "/models").compactMap(\.stringValue)
        if models.isEmpty {
            manifest.report("chatCompletion needs 'models': a non-empty array of model names", at: pointer)
        }
        guard let content = manifest.string(pointer + "/content", required: true) else { return nil }
        var created: Int64? = 0
        switch manifest.value(at: pointer + "/created") {
        case nil: break
        case .string("now")?: created = nil
        case let value?:
            guard let seconds = value.intValue, seconds >= 0 else {
                manifest.report(
                    "'created' is seconds since 1970 (a non-negative integer) or \"now\"", at: pointer + "/created")
                return nil
            }
            created = Int64(seconds)
        }
        return ChatCompletionBehaviour(
            models: models, content: content, id: manifest.string(pointer + "/id") ?? "chatcmpl-mockstack",
            created: created, systemFingerprint: manifest.string(pointer + "/systemFingerprint"))
    }

    /// `{"behaviour": "autoQuery", "data": "technologies.json", "model": "Technology",
    ///   "term": "or", "maxLimit": 500, "includeTotal": true}`; `model` defaults to the first
    /// generic argument of the request's `QueryDb<…>` base.
    private func autoQuery(at pointer: String, for operation: MetadataOperation) -> (any OperationBehaviour)? {
        let modelName =
            manifest.string(pointer + "/model")
            ?? operation.request.inherits.flatMap { $0.genericArgs.first }.map { TypeReference(parsing: $0).name }
        guard let modelName else {
            manifest.report("autoQuery needs a 'model' (the request does not inherit QueryDb<T>)", at: pointer)
            return nil
        }
        guard let model = coercion.catalog.object(named: modelName) else {
            manifest.report(
                "the metadata declares no type '\(modelName)'",
                at: pointer + (manifest.value(at: pointer + "/model") == nil ? "" : "/model"))
            return nil
        }
        guard let fileName = manifest.string(pointer + "/data", required: true),
            let rows = dataSets.rows(of: fileName, as: modelName, at: pointer + "/data")
        else { return nil }
        let term = self.term(at: pointer + "/term") ?? .and
        let primaryKey =
            coercion.catalog.primaryKey(of: modelName) ?? model.properties.first { $0.name == "Id" }?.name ?? model
            .properties.first?.name ?? "Id"
        let fields = model.properties.map(\.name)
        let store = dataSets.shared("columns\u{0}\(modelName)\u{0}\(fileName)") {
            ColumnStore(rows: rows, fields: fields)
        }!
        let engine = AutoQueryEngine(
            store: store, primaryKey: primaryKey,
            maxLimit: manifest.int(pointer + "/maxLimit", in: 1...1_000_000) ?? 1_000,
            includeTotal: flag(pointer + "/includeTotal") ?? false)
        let aliases = Dictionary(
            model.properties.compactMap { property in property.dataMemberName.map { ($0, property.name) } },
            uniquingKeysWith: { first, _ in first })
        let builder = QueryConditionBuilder(
            fields: model.properties.map { ($0.name, $0.shape) }, aliases: aliases, coercion: coercion)
        let declarations = autoQueryDeclarations(at: pointer + "/properties", request: operation.request, model: model)
        return AutoQueryBehaviour(engine: engine, builder: builder, defaultTerm: term, declarations: declarations)
    }

    /// `"term": "and" | "or" | "ensure"`, nil when absent or reported.
    private func term(at pointer: String) -> AutoQuery.Term? {
        switch manifest.string(pointer) {
        case nil: return nil
        case "and"?: return .and
        case "or"?: return .or
        case "ensure"?: return .ensure
        case let other?:
            manifest.report("unknown term '\(other)' (expected and, or or ensure)", at: pointer)
            return nil
        }
    }

    static let declaredOperators: [String: QueryConvention.Operator] = [
        "=": .equal, "!=": .notEqual, ">": .greaterThan, ">=": .greaterThanOrEqual, "<": .lessThan,
        "<=": .lessThanOrEqual,
        "like": .like, "startsWith": .startsWith, "contains": .contains, "endsWith": .endsWith, "in": .in,
        "between": .between, "isNull": .isNull, "isNotNull": .isNotNull, "overlaps": .overlaps,
    ]

    /// `"properties": {"AnyTechnologyIds": {"field": "TechnologyIds", "operator": "overlaps", "term": "and"}}`:
    /// request properties whose condition is spelled out rather than read from their name.
    private func autoQueryDeclarations(
        at pointer: String, request: MetadataType, model: ObjectShape
    ) -> [String: AutoQueryBehaviour.Declaration] {
        guard let value = manifest.value(at: pointer) else { return [:] }
        guard let object = value.objectValue else {
            manifest.report(
                "expected an object of request property → {field, operator, term}, found \(value.typeName)", at: pointer
            )
            return [:]
        }
        var declarations: [String: AutoQueryBehaviour.Declaration] = [:]
        for name in object.keys {
            let at = JSONPointer.appending(name, to: pointer)
            manifest.rejectUnknownKeys(at: at, allowed: ["field", "operator", "term"])
            guard request.properties.contains(where: { $0.name.equalsIgnoringASCIICase(name) }) else {
                manifest.report("\(request.name) has no property '\(name)'", at: at)
                continue
            }
            let fieldName = manifest.string(at + "/field") ?? name
            guard let field = model.property(named: fieldName) else {
                manifest.report("\(model.reference) has no field '\(fieldName)'", at: at + "/field")
                continue
            }
            let operatorName = manifest.string(at + "/operator") ?? "="
            guard let op = Self.declaredOperators[operatorName] else {
                let names = Self.declaredOperators.keys.sorted().joined(separator: ", ")
                manifest.report("unknown operator '\(operatorName)' (expected one of: \(names))", at: at + "/operator")
                continue
            }
            let isArray: Bool = if case .list = field.shape.unwrapped { true } else { false }
            if op == .overlaps, !isArray {
                manifest.report("'overlaps' needs an array field; \(field.name) is not one", at: at + "/operator")
                continue
            }
            declarations[name.lowercased()] = AutoQueryBehaviour.Declaration(
                field: field.name, operator: op, term: term(at: at + "/term"))
        }
        return declarations
    }

    private func flag(_ pointer: String) -> Bool? {
        guard let value = manifest.value(at: pointer) else { return nil }
        guard let flag = value.boolValue else {
            manifest.report("expected true or false, found \(value.typeName)", at: pointer)
            return nil
        }
        return flag
    }
}
