import MockStackCore
import MockStackWire

/// A ``RequestPattern`` compiled: what stubs match requests with and verifications match the
/// journal with. Every criterion given must hold.
struct RequestMatcher: Sendable {
    let pattern: RequestPattern
    private let method: HTTPMethod?
    private let path: StringMatcher?
    private let pathRegex: StringMatcher?
    private let query: [(name: String, matcher: StringMatcher)]
    private let headers: [(name: String, matcher: StringMatcher)]
    private let cookies: [(name: String, matcher: StringMatcher)]
    private let basicUsername: StringMatcher?
    private let basicPassword: StringMatcher?
    private let bodyPointers: [(pointer: String, value: BodyMatcher)]
    private let parts: [PartMatcher]
    private let allOf: [RequestMatcher]
    private let anyOf: [RequestMatcher]
    private let noneOf: [RequestMatcher]

    private enum BodyMatcher: Sendable {
        case json(JSONValue)
        case pattern(StringMatcher)
        case like(JSONValue, JSONLikeness)
    }

    /// A ``RequestPattern/PartPattern`` compiled.
    private struct PartMatcher: Sendable {
        /// What of a part a pattern reads, spelled as the pattern's keys.
        enum Field: String, Sendable {
            case name, fileName, contentType, body

            func value(of part: MultipartForm.Part) -> String? {
                switch self {
                case .name: part.name
                case .fileName: part.fileName
                case .contentType: part.contentType
                case .body: String(decoding: part.body, as: UTF8.self)
                }
            }
        }

        let pattern: RequestPattern.PartPattern
        let fields: [(field: Field, matcher: StringMatcher)]

        /// Why `part` misses, or nil when it matches.
        func mismatch(_ part: MultipartForm.Part, within budget: inout PatternBudget) -> String? {
            for (field, matcher) in fields {
                let value = field.value(of: part)
                if !matcher.matches(value, within: &budget) {
                    guard field != .body else { return "its body is not \(matcher.pattern)" }
                    return "\(field.rawValue) is \(value.map { "'\($0)'" } ?? "absent"), not \(matcher.pattern)"
                }
            }
            return nil
        }
    }

    /// A criterion the server cannot use, naming its field.
    struct Problem: Error {
        var field: String
        var message: String
    }

    /// - Parameter field: where the pattern sits in what was sent (`match`), for problems.
    init(_ pattern: RequestPattern, field: String) throws(Problem) {
        self.pattern = pattern
        func at(_ key: String) -> String { field.isEmpty ? key : field + "." + key }
        func compile(_ pattern: StringPattern, _ at: String) throws(Problem) -> StringMatcher {
            do throws(PatternError) {
                return try StringMatcher(pattern)
            } catch {
                throw Problem(field: at, message: error.description)
            }
        }
        if let name = pattern.method {
            guard let method = HTTPMethod(name: name.uppercased()) else {
                throw Problem(field: at("method"), message: "'\(name)' is not an HTTP method")
            }
            self.method = method
        } else {
            method = nil
        }
        path = try pattern.path.map { (path) throws(Problem) in try compile(path, at("path")) }
        pathRegex = try pattern.pathRegex.map { (regex) throws(Problem) in try compile(.matches(regex), at("pathRegex"))
        }
        var query: [(name: String, matcher: StringMatcher)] = []
        for entry in pattern.query {
            query.append((entry.name, try compile(entry.pattern, at("query") + "." + entry.name)))
        }
        self.query = query
        var parts: [PartMatcher] = []
        for (index, part) in pattern.parts.enumerated() {
            var fields: [(field: PartMatcher.Field, matcher: StringMatcher)] = []
            for (field, given) in [
                (PartMatcher.Field.name, part.name), (.fileName, part.fileName), (.contentType, part.contentType),
                (.body, part.body),
            ] {
                guard let given else { continue }
                fields.append((field, try compile(given, at("parts") + ".\(index).\(field.rawValue)")))
            }
            parts.append(PartMatcher(pattern: part, fields: fields))
        }
        self.parts = parts
        var headers: [(name: String, matcher: StringMatcher)] = []
        for entry in pattern.headers {
            headers.append((entry.name, try compile(entry.pattern, at("headers") + "." + entry.name)))
        }
        self.headers = headers
        var cookies: [(name: String, matcher: StringMatcher)] = []
        for entry in pattern.cookies {
            cookies.append((entry.name, try compile(entry.pattern, at("cookies") + "." + entry.name)))
        }
        self.cookies = cookies
        basicUsername = try pattern.basicAuth?.username.map { (name) throws(Problem) in
            try compile(name, at("basicAuth") + ".username")
        }
        basicPassword = try pattern.basicAuth?.password.map { (word) throws(Problem) in
            try compile(word, at("basicAuth") + ".password")
        }
        var pointers: [(pointer: String, value: BodyMatcher)] = []
        for entry in pattern.bodyPointers {
            switch entry.value {
            case .json(let value): pointers.append((entry.pointer, .json(value)))
            case .like(let value, let ignoringOrder, let ignoringExtra):
                pointers.append(
                    (
                        entry.pointer,
                        .like(
                            value,
                            JSONLikeness(ignoringArrayOrder: ignoringOrder, ignoringExtraElements: ignoringExtra))
                    ))
            case .pattern(let string):
                pointers.append(
                    (entry.pointer, .pattern(try compile(string, at("bodyPointers") + "." + entry.pointer))))
            }
        }
        bodyPointers = pointers
        func combined(_ patterns: [RequestPattern], _ key: String) throws(Problem) -> [RequestMatcher] {
            var matchers: [RequestMatcher] = []
            for (index, part) in patterns.enumerated() {
                matchers.append(try RequestMatcher(part, field: at(key) + (patterns.count > 1 ? ".\(index)" : "")))
            }
            return matchers
        }
        allOf = try combined(pattern.allOf, "and")
        anyOf = try combined(pattern.anyOf, "or")
        noneOf = try combined(pattern.noneOf, "not")
    }

    var app: String? { pattern.app }
    var session: String? { pattern.session }
    var operation: String? { pattern.operation }

    /// Whether the request matches, with no reason written for one that does not: every stub is
    /// tried on every request, and a reason can quote a large part of the body.
    /// - Parameters:
    ///   - anySession: as verifications read a journal: without `session`, requests of every
    ///     session count (a stub without one answers outside sessions only);
    ///   - budget: the steps its regexes may take (shared by every match made for one request);
    ///     a regex that runs out of them does not match, and leaves the budget spent.
    func matches(_ subject: MatchedRequest, anySession: Bool = false, within budget: inout PatternBudget) -> Bool {
        mismatch(subject, explained: false, anySession: anySession, within: &budget) == nil
    }

    /// Why the request does not match — the first criterion that fails — or nil when it does.
    /// - Parameter explained: false to get "" instead of the reason, for a caller that only asks whether.
    func mismatch(
        _ subject: MatchedRequest, explained: Bool = true, anySession: Bool = false, within budget: inout PatternBudget
    ) -> String? {
        func because(_ reason: @autoclosure () -> String) -> String { explained ? reason() : "" }
        // A regex that failed with the budget spent was cut short, not found wanting.
        func because(_ reason: @autoclosure () -> String, by matcher: StringMatcher) -> String {
            guard explained else { return "" }
            return matcher.isRegex && budget.isSpent
                ? reason() + " (the match ran out of steps: \(PatternBudget.perRequest) a request at most)" : reason()
        }
        let request = subject.request
        if let app = pattern.app, app != subject.app { return because("app \(subject.app ?? "none") is not \(app)") }
        // A stub answers in its own scope only: the server's outside sessions, a session's inside it.
        if pattern.session != nil || !anySession, pattern.session != subject.session {
            return because(Self.scopeMismatch(sentIn: subject.session, wanted: pattern.session))
        }
        if let method, method != request.method {
            return because("method \(request.method.rawValue) is not \(method.rawValue)")
        }
        if let path, !path.matches(request.path, within: &budget) {
            return because("path \(request.path) is not \(path.pattern)", by: path)
        }
        if let prefix = pattern.pathPrefix, !request.path.hasPrefix(prefix) {
            return because("path \(request.path) does not start with \(prefix)")
        }
        if let pathRegex, !pathRegex.matches(request.path, within: &budget) {
            return because("path \(request.path) does not match /\(pattern.pathRegex ?? "")/", by: pathRegex)
        }
        if !query.isEmpty {
            let given = subject.query
            for (name, matcher) in query {
                if matcher.pattern.isValueList {
                    let values = given.allValues(named: name, ignoringCase: subject.parameterNamesIgnoreCase)
                    if !matcher.matches(values: values, within: &budget) {
                        return because(
                            "query \(name) is \(Self.listed(values)), not \(matcher.pattern)", by: matcher)
                    }
                    continue
                }
                let value = given.value(named: name, ignoringCase: subject.parameterNamesIgnoreCase)
                if !matcher.matches(value, within: &budget) {
                    return because(
                        "query \(name) is \(value.map { "'\($0)'" } ?? "absent"), not \(matcher.pattern)", by: matcher)
                }
            }
        }
        for (name, matcher) in headers {
            if matcher.pattern.isValueList {
                let values = request.headers.values(for: name)
                if !matcher.matches(values: values, within: &budget) {
                    return because("header \(name) is \(Self.listed(values)), not \(matcher.pattern)", by: matcher)
                }
                continue
            }
            let value = request.headers[name]
            if !matcher.matches(value, within: &budget) {
                return because(
                    "header \(name) is \(value.map { "'\($0)'" } ?? "absent"), not \(matcher.pattern)", by: matcher)
            }
        }
        if !cookies.isEmpty {
            let sent = RequestCookies(request.headers)
            for (name, matcher) in cookies {
                let value = sent.value(named: name)
                if !matcher.matches(value, within: &budget) {
                    return because(
                        "cookie \(name) is \(value.map { "'\($0)'" } ?? "absent"), not \(matcher.pattern)", by: matcher)
                }
            }
        }
        if pattern.basicAuth != nil {
            guard let credentials = request.basicCredentials else { return because("no Basic credentials were sent") }
            if let basicUsername, !basicUsername.matches(credentials.userName, within: &budget) {
                return because(
                    "the Basic user is '\(credentials.userName)', not \(basicUsername.pattern)", by: basicUsername)
            }
            if let basicPassword, !basicPassword.matches(credentials.password, within: &budget) {
                return because("the Basic password is not \(basicPassword.pattern)", by: basicPassword)
            }
        }
        if pattern.body != nil || !bodyPointers.isEmpty {
            guard let json = subject.json.value else { return because("the body is not JSON") }
            if let body = pattern.body, body != json { return because("the body is not the JSON expected") }
            for (pointer, expected) in bodyPointers {
                let found = JSONPointer.value(at: pointer, in: json)
                switch expected {
                case .json(let value) where found != value:
                    return because("\(pointer) is \(found?.jsonText ?? "absent"), not \(value.jsonText)")
                case .pattern(let matcher) where !matcher.matches(found.map(Self.text), within: &budget):
                    return because("\(pointer) is \(found?.jsonText ?? "absent"), not \(matcher.pattern)", by: matcher)
                case .like(let value, let likeness):
                    guard let found, likeness.isLike(found, value, within: &budget) else {
                        let ignored = [
                            likeness.ignoringArrayOrder ? "array order" : nil,
                            likeness.ignoringExtraElements ? "extra elements" : nil,
                        ].compactMap { $0 }.joined(separator: " and ")
                        let cut =
                            budget.isSpent
                            ? " (the match ran out of steps: \(PatternBudget.perRequest) a request at most)" : ""
                        return because(
                            "\(pointer.isEmpty ? "the body" : pointer) is not like \(value.jsonText)"
                                + (ignored.isEmpty ? "" : " (\(ignored) ignored)") + cut)
                    }
                default: continue
                }
            }
        }
        if !parts.isEmpty {
            let form: MultipartForm
            switch subject.form {
            case .success(let parsed): form = parsed
            case .failure(let problem): return because("\(problem)")
            }
            for (index, part) in parts.enumerated() {
                if part.pattern.everyPart {
                    for (number, sent) in form.parts.enumerated() {
                        if let reason = part.mismatch(sent, within: &budget) {
                            return because("part \(number + 1) ('\(sent.name)') misses parts.\(index): \(reason)")
                        }
                    }
                    if form.parts.isEmpty { return because("no part was sent for parts.\(index)") }
                } else if !form.parts.contains(where: { part.mismatch($0, within: &budget) == nil }) {
                    let sent = form.parts.map { "'\($0.name)'" }.joined(separator: ", ")
                    return because(
                        "no part matches parts.\(index)"
                            + (form.parts.count == 1
                                ? ": \(part.mismatch(form.parts[0], within: &budget) ?? "")"
                                : " (parts sent: \(sent.isEmpty ? "none" : sent))"))
                }
            }
        }
        if let operation = pattern.operation, subject.operation != operation {
            return because("operation \(subject.operation ?? "none") is not \(operation)")
        }
        // The parts share the whole pattern's scope, checked above.
        for (index, part) in allOf.enumerated() {
            if let reason = part.mismatch(subject, explained: explained, anySession: true, within: &budget) {
                return because("and \(index): " + reason)
            }
        }
        if !anyOf.isEmpty {
            var first: String?
            for part in anyOf {
                guard let reason = part.mismatch(subject, explained: explained, anySession: true, within: &budget)
                else {
                    first = nil
                    break
                }
                if first == nil { first = reason }
            }
            if let first { return because("none of or matched (or 0: \(first))") }
        }
        for (index, part) in noneOf.enumerated() {
            let missed = part.mismatch(subject, explained: false, anySession: true, within: &budget) != nil
            // A part cut short by the budget did not miss: it proves nothing either way.
            if !missed || budget.isSpent {
                let undecided = "not \(index) could not be decided (the match ran out of steps: "
                return because(
                    missed ? undecided + "\(PatternBudget.perRequest) a request at most)" : "not \(index) matched")
            }
        }
        return nil
    }

    /// A JSON value as a string pattern sees it: a string's text, anything else as JSON.
    /// A name's values for a reason: `absent`, or `['a', 'b']`.
    private static func listed(_ values: [String]) -> String {
        values.isEmpty ? "absent" : "[" + values.map { "'\($0)'" }.joined(separator: ", ") + "]"
    }

    private static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.jsonText
    }

    /// Why a request sent in one scope does not match a pattern of another, in the words a
    /// test author uses: "sent in session my-test-1, not outside sessions".
    static func scopeMismatch(sentIn session: String?, wanted: String?) -> String {
        let sent = session.map { "sent in session \($0)" } ?? "sent outside sessions"
        let scope = wanted.map { "in session \($0)" } ?? "outside sessions"
        return "\(sent), not \(scope)"
    }
}
