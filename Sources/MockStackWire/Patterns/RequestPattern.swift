public import MockStackJSON

/// Which requests a stub takes, or a verification counts: every criterion given must hold.
/// The one shape `match` has in `POST /__mockstack/stubs` and the body of
/// `POST /__mockstack/requests/count` and `/requests/find`.
///
/// `{"method", "path", "pathPrefix", "pathRegex", "query": {name: pattern}, "headers": {name: pattern},
///   "cookies": {name: pattern}, "basicAuth": {"username": pattern, "password": pattern},
///   "body", "bodyPointers": {pointer: value or pattern}, "parts": [part pattern, …], "app", "operation", "session",
///   "and": [pattern, …], "or": [pattern, …], "not": pattern}`: whole patterns combine as string
/// patterns do, within the same bounds (``StringPattern/maximumDepth``, ``StringPattern/maximumParts``).
public struct RequestPattern: Sendable, Equatable {
    /// A name (query parameter, header) and the pattern its value must match.
    public struct Named: Sendable, Equatable {
        /// The parameter's or header's name.
        public var name: String
        /// What its value must match.
        public var pattern: StringPattern
        /// `name`'s value must match `pattern`.
        public init(_ name: String, _ pattern: StringPattern) {
            self.name = name
            self.pattern = pattern
        }
    }

    /// What a JSON pointer into the body must hold.
    public enum BodyValue: Sendable, Equatable {
        /// JSON equality (`{"equalToJson": …}` spells a value that would read as a pattern).
        case json(JSONValue)
        /// A string value that matches, or (`absent`) nothing there.
        case pattern(StringPattern)
        /// JSON like this one, as WireMock's `equalToJson` with its options compares:
        /// `{"equalToJson": …, "ignoreArrayOrder": true, "ignoreExtraElements": true}`.
        case like(JSONValue, ignoringArrayOrder: Bool, ignoringExtraElements: Bool)
    }

    /// A JSON pointer into the body and what it must hold.
    public struct BodyPointer: Sendable, Equatable {
        /// An RFC 6901 JSON pointer (`/name`, `/items/0/id`).
        public var pointer: String
        /// What must be there.
        public var value: BodyValue
        /// What `pointer` must hold.
        public init(_ pointer: String, _ value: BodyValue) {
            self.pointer = pointer
            self.value = value
        }
    }

    /// The method, exactly (`POST`).
    public var method: String?
    /// The whole path (mount included; in a session, after its prefix).
    public var path: StringPattern?
    /// The path starts with this.
    public var pathPrefix: String?
    /// A regular expression the whole path must match: the same as `path: {"matches": …}`.
    public var pathRegex: String?
    /// Query parameters (decoded); ServiceStack's names ignore case, as ServiceStack does. A
    /// pattern compares the last value of a name given twice, a value list (`hasExactly`,
    /// `includes`) all of them.
    public var query: [Named]
    /// Headers; names ignore case. A pattern compares the first of a repeated header, a value
    /// list all of them.
    public var headers: [Named]
    /// Cookies sent in `Cookie` headers, by name (the first of a name).
    public var cookies: [Named]
    /// HTTP Basic credentials (`Authorization: Basic …`) the request must carry.
    public var basicAuth: BasicCredentials?

    /// What Basic credentials' user name and password must match; either may be left out.
    public struct BasicCredentials: Sendable, Equatable {
        /// What the user name must match.
        public var username: StringPattern?
        /// What the password must match.
        public var password: StringPattern?
        /// Credentials whose parts match these patterns (nil: any).
        public init(username: StringPattern? = nil, password: StringPattern? = nil) {
            self.username = username
            self.password = password
        }
    }

    /// What the parts of a `multipart/form-data` body must hold: each pattern a part of its own.
    public struct PartPattern: Sendable, Equatable {
        /// The part's `name`.
        public var name: StringPattern?
        /// Its `filename` (`{"absent": true}`: not a file).
        public var fileName: StringPattern?
        /// Its own `Content-Type`.
        public var contentType: StringPattern?
        /// Its body, read as UTF-8 text.
        public var body: StringPattern?
        /// Whether every part must match (WireMock's `"matchingType": "ALL"`), rather than one at least (`ANY`).
        public var everyPart: Bool
        /// A part pattern of the criteria given (none: any part).
        public init(
            name: StringPattern? = nil, fileName: StringPattern? = nil, contentType: StringPattern? = nil,
            body: StringPattern? = nil, everyPart: Bool = false
        ) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.body = body
            self.everyPart = everyPart
        }

        /// Its keys, spelled once.
        static let keys = ["name", "fileName", "contentType", "body", "matchingType"]
    }

    /// The body, equal as JSON.
    public var body: JSONValue?
    /// Values in a JSON body, by pointer; all must hold.
    public var bodyPointers: [BodyPointer]
    /// Parts of a `multipart/form-data` body; all must hold.
    public var parts: [PartPattern]
    /// The app the request is for, by name.
    public var app: String?
    /// The ServiceStack operation (`Hello`, whatever route reached it), Feathers `service.method`
    /// (`messages.find`) or static fixture that takes the request.
    public var operation: String?
    /// The session whose requests it takes (a session's control plane sets it).
    public var session: String?
    /// Patterns that must all hold as well (`and`).
    public var allOf: [RequestPattern]
    /// Patterns of which at least one must hold (`or`), when given.
    public var anyOf: [RequestPattern]
    /// Patterns none of which may hold (`not`: one pattern, or a list).
    public var noneOf: [RequestPattern]

    /// A pattern of the criteria given; with none it matches every request.
    public init(
        method: String? = nil, path: StringPattern? = nil, pathPrefix: String? = nil, pathRegex: String? = nil,
        query: [Named] = [], headers: [Named] = [], cookies: [Named] = [],
        basicAuth: BasicCredentials? = nil, body: JSONValue? = nil, bodyPointers: [BodyPointer] = [],
        parts: [PartPattern] = [], app: String? = nil, operation: String? = nil,
        session: String? = nil, allOf: [RequestPattern] = [], anyOf: [RequestPattern] = [],
        noneOf: [RequestPattern] = []
    ) {
        self.method = method
        self.path = path
        self.pathPrefix = pathPrefix
        self.pathRegex = pathRegex
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.basicAuth = basicAuth
        self.body = body
        self.bodyPointers = bodyPointers
        self.parts = parts
        self.app = app
        self.operation = operation
        self.session = session
        self.allOf = allOf
        self.anyOf = anyOf
        self.noneOf = noneOf
    }

    /// The keys, spelled once.
    enum Key {
        static let method = "method", path = "path", pathPrefix = "pathPrefix", pathRegex = "pathRegex",
            query = "query",
            headers = "headers", cookies = "cookies", basicAuth = "basicAuth", body = "body",
            bodyPointers = "bodyPointers", parts = "parts", app = "app", operation = "operation",
            session = "session", equalToJson = "equalToJson", and = "and", or = "or", not = "not",
            ignoreArrayOrder = "ignoreArrayOrder", ignoreExtraElements = "ignoreExtraElements"
        static let all = [
            method, path, pathPrefix, pathRegex, query, headers, cookies, basicAuth, body, bodyPointers, parts, app,
            operation, session, and, or, not,
        ]
    }

    /// Reads a pattern; `field` prefixes the names in problems (`match`).
    public init(json: JSONValue, field: String) throws(WireProblem) {
        var parts = 0
        try self.init(json: json, field: field, depth: 1, parts: &parts)
    }

    private init(json: JSONValue, field: String, depth: Int, parts: inout Int) throws(WireProblem) {
        try StringPattern.count(&parts, at: field)
        guard case .object(let object) = json else { throw WireProblem(field: field, message: "expected an object") }
        try WireProblem.only(object, Key.all, at: field)
        func at(_ key: String) -> String { field.isEmpty ? key : field + "." + key }
        self.init()
        method = try WireProblem.string(object[Key.method], at(Key.method))
        if let value = object[Key.path] { path = try StringPattern(json: value, field: at(Key.path)) }
        pathRegex = try WireProblem.string(object[Key.pathRegex], at(Key.pathRegex))
        pathPrefix = try WireProblem.string(object[Key.pathPrefix], at(Key.pathPrefix))
        query = try Self.named(object[Key.query], at(Key.query), repeats: true)
        headers = try Self.named(object[Key.headers], at(Key.headers), repeats: true)
        cookies = try Self.named(object[Key.cookies], at(Key.cookies), repeats: false)
        if let value = object[Key.basicAuth] {
            guard case .object(let credentials) = value, !credentials.isEmpty else {
                throw WireProblem(
                    field: at(Key.basicAuth), message: "expected {\"username\": pattern, \"password\": pattern}")
            }
            try WireProblem.only(credentials, ["username", "password"], at: at(Key.basicAuth))
            basicAuth = BasicCredentials(
                username: try credentials["username"].map { (name) throws(WireProblem) in
                    try StringPattern(json: name, field: at(Key.basicAuth) + ".username")
                },
                password: try credentials["password"].map { (word) throws(WireProblem) in
                    try StringPattern(json: word, field: at(Key.basicAuth) + ".password")
                })
        }
        body = object[Key.body]
        if let value = object[Key.bodyPointers] {
            guard case .object(let entries) = value else {
                throw WireProblem(field: at(Key.bodyPointers), message: "expected an object of JSON pointers to values")
            }
            for (pointer, expected) in entries {
                guard pointer.isEmpty || pointer.hasPrefix("/") else {
                    throw WireProblem(field: at(Key.bodyPointers), message: "'\(pointer)' is not a JSON pointer")
                }
                bodyPointers.append(
                    BodyPointer(pointer, try Self.bodyValue(expected, at(Key.bodyPointers) + "." + pointer)))
            }
        }
        if let value = object[Key.parts] { self.parts = try Self.partPatterns(value, at(Key.parts)) }
        app = try WireProblem.string(object[Key.app], at(Key.app))
        operation = try WireProblem.string(object[Key.operation], at(Key.operation))
        session = try WireProblem.string(object[Key.session], at(Key.session))
        for key in [Key.and, Key.or, Key.not] {
            guard let value = object[key] else { continue }
            guard depth < StringPattern.maximumDepth else {
                throw WireProblem(field: at(key), message: "nested deeper than \(StringPattern.maximumDepth)")
            }
            // `not` takes one pattern or a list; `and` and `or` a list.
            let items: [JSONValue]
            switch value {
            case .array(let list) where !list.isEmpty: items = list
            case .object where key == Key.not: items = [value]
            default: throw WireProblem(field: at(key), message: "expected a list of request patterns")
            }
            var combined: [RequestPattern] = []
            for (index, item) in items.enumerated() {
                let itemField = value.arrayValue == nil ? at(key) : at(key) + ".\(index)"
                let pattern = try RequestPattern(json: item, field: itemField, depth: depth + 1, parts: &parts)
                // The stub's scope is its own: a part cannot move it.
                guard pattern.session == nil, pattern.app == nil else {
                    throw WireProblem(
                        field: itemField, message: "app and session belong to the whole pattern, not to a part of it")
                }
                combined.append(pattern)
            }
            switch key {
            case Key.and: allOf = combined
            case Key.or: anyOf = combined
            default: noneOf = combined
            }
        }
    }

    private static func named(_ value: JSONValue?, _ field: String, repeats: Bool) throws(WireProblem) -> [Named] {
        guard let value else { return [] }
        guard case .object(let object) = value else {
            throw WireProblem(field: field, message: "expected an object of names to strings or patterns")
        }
        var result: [Named] = []
        for (name, item) in object {
            result.append(Named(name, try StringPattern(json: item, field: field + "." + name, repeats: repeats)))
        }
        return result
    }

    private static func partPatterns(_ value: JSONValue, _ field: String) throws(WireProblem) -> [PartPattern] {
        guard case .array(let items) = value, !items.isEmpty else {
            throw WireProblem(
                field: field,
                message: "expected a list of part patterns ({\"name\", \"fileName\", \"contentType\", \"body\"})")
        }
        var patterns: [PartPattern] = []
        for (index, item) in items.enumerated() {
            let at = field + ".\(index)"
            guard case .object(let object) = item else { throw WireProblem(field: at, message: "expected an object") }
            try WireProblem.only(object, PartPattern.keys, at: at)
            func pattern(_ key: String) throws(WireProblem) -> StringPattern? {
                try object[key].map { (json) throws(WireProblem) in try StringPattern(json: json, field: at + "." + key)
                }
            }
            var every = false
            if let type = object["matchingType"] {
                switch type.stringValue?.uppercased() {
                case "ANY": every = false
                case "ALL": every = true
                default: throw WireProblem(field: at + ".matchingType", message: "expected ANY or ALL")
                }
            }
            patterns.append(
                PartPattern(
                    name: try pattern("name"), fileName: try pattern("fileName"),
                    contentType: try pattern("contentType"), body: try pattern("body"), everyPart: every))
        }
        return patterns
    }

    private static func bodyValue(_ value: JSONValue, _ field: String) throws(WireProblem) -> BodyValue {
        guard case .object(let object) = value else { return .json(value) }
        if object.count == 1, let literal = object[Key.equalToJson] { return .json(literal) }
        if let literal = object[Key.equalToJson] {
            try WireProblem.only(object, [Key.equalToJson, Key.ignoreArrayOrder, Key.ignoreExtraElements], at: field)
            func flag(_ key: String) throws(WireProblem) -> Bool {
                guard let given = object[key] else { return false }
                guard let bool = given.boolValue else {
                    throw WireProblem(field: field + "." + key, message: "expected true or false")
                }
                return bool
            }
            return .like(
                literal, ignoringArrayOrder: try flag(Key.ignoreArrayOrder),
                ignoringExtraElements: try flag(Key.ignoreExtraElements))
        }
        return StringPattern.isPattern(object) ? .pattern(try StringPattern(json: value, field: field)) : .json(value)
    }

    /// The pattern as JSON, each key written only when given.
    public var json: JSONValue {
        var object = JSONObject()
        if let method { object[Key.method] = .string(method) }
        if let path { object[Key.path] = path.json }
        if let pathPrefix { object[Key.pathPrefix] = .string(pathPrefix) }
        if let pathRegex { object[Key.pathRegex] = .string(pathRegex) }
        if !query.isEmpty { object[Key.query] = .object(JSONObject(query.map { ($0.name, $0.pattern.json) })) }
        if !headers.isEmpty { object[Key.headers] = .object(JSONObject(headers.map { ($0.name, $0.pattern.json) })) }
        if !cookies.isEmpty { object[Key.cookies] = .object(JSONObject(cookies.map { ($0.name, $0.pattern.json) })) }
        if let basicAuth {
            var credentials = JSONObject()
            if let username = basicAuth.username { credentials["username"] = username.json }
            if let password = basicAuth.password { credentials["password"] = password.json }
            object[Key.basicAuth] = .object(credentials)
        }
        if let body { object[Key.body] = body }
        if !bodyPointers.isEmpty {
            object[Key.bodyPointers] = .object(
                JSONObject(
                    bodyPointers.map { entry in
                        switch entry.value {
                        case .pattern(let pattern): (entry.pointer, pattern.objectJSON)
                        case .like(let value, let ignoringOrder, let ignoringExtra):
                            (
                                entry.pointer,
                                .object([
                                    Key.equalToJson: value, Key.ignoreArrayOrder: .bool(ignoringOrder),
                                    Key.ignoreExtraElements: .bool(ignoringExtra),
                                ])
                            )
                        case .json(let value):
                            // A value that would read back as a pattern is wrapped.
                            (
                                entry.pointer,
                                value.objectValue.map {
                                    StringPattern.isPattern($0) || $0[Key.equalToJson] != nil
                                } == true
                                    ? .object([Key.equalToJson: value]) : value
                            )
                        }
                    }))
        }
        if !parts.isEmpty {
            object[Key.parts] = .array(
                parts.map { part in
                    var described = JSONObject()
                    if let name = part.name { described["name"] = name.json }
                    if let fileName = part.fileName { described["fileName"] = fileName.json }
                    if let contentType = part.contentType { described["contentType"] = contentType.json }
                    if let body = part.body { described["body"] = body.json }
                    if part.everyPart { described["matchingType"] = "ALL" }
                    return .object(described)
                })
        }
        if let app { object[Key.app] = .string(app) }
        if let operation { object[Key.operation] = .string(operation) }
        if let session { object[Key.session] = .string(session) }
        if !allOf.isEmpty { object[Key.and] = .array(allOf.map(\.json)) }
        if !anyOf.isEmpty { object[Key.or] = .array(anyOf.map(\.json)) }
        if !noneOf.isEmpty { object[Key.not] = noneOf.count == 1 ? noneOf[0].json : .array(noneOf.map(\.json)) }
        return .object(object)
    }
}
