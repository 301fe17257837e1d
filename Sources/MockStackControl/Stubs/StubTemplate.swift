import MockStackCore

/// Fills a `template: true` answer from one request: `{{method}}`, `{{path}}`,
/// `{{query.NAME}}`, `{{header.NAME}}` and `{{body/json/pointer}}` (`{{body}}`: all of it).
///
/// What a template may cost is bounded: the body is parsed at most once (shared
/// with the stubs' matching, ``RequestBodyJSON``), the query once, each distinct placeholder
/// is looked up and rendered once however often it repeats, and the bytes filled in are
/// counted against a limit, so that 200 × `{{body}}` of a large body stops at the limit
/// instead of building hundreds of megabytes.
struct StubTemplate {
    /// The limit was passed.
    struct TooLarge: Error {}

    private let request: HTTPRequest
    private let json: RequestBodyJSON
    private var query: QueryParameters?
    /// Each placeholder's value and its text (a string as it is, anything else as JSON).
    private var looked: [String: (value: JSONValue?, text: String)] = [:]
    private var remaining: Int

    /// - Parameter limit: the most bytes the filled answer may hold.
    init(request: HTTPRequest, json: RequestBodyJSON, limit: Int) {
        self.request = request
        self.json = json
        remaining = limit
    }

    mutating func fill(_ value: JSONValue) throws(TooLarge) -> JSONValue {
        switch value {
        case .string(let text):
            // A string that is one placeholder naming a JSON value takes that value, type and all.
            if text.hasPrefix("{{body"), text.hasSuffix("}}"),
                text.dropFirst(2).dropLast(2).allSatisfy({ $0 != "{" && $0 != "}" })
            {
                let found = lookup(String(text.dropFirst(2).dropLast(2)))
                if let value = found.value {
                    try spend(found.text.utf8.count)
                    return value
                }
            }
            return .string(try fill(text, inJSON: true))
        case .array(let items):
            var filled: [JSONValue] = []
            filled.reserveCapacity(items.count)
            for item in items { filled.append(try fill(item)) }
            return .array(filled)
        case .object(let object):
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(object.members.count)
            for member in object.members {
                try spend(member.key.utf8.count)
                members.append((member.key, try fill(member.value)))
            }
            return .object(JSONObject(members))
        default:
            return value
        }
    }

    /// - Parameter inJSON: the text goes into a JSON string, so what it inserts is counted as
    ///   written there, escapes included (a control character takes six bytes).
    mutating func fill(_ text: String, inJSON: Bool = false) throws(TooLarge) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            let literal = rest[..<open.lowerBound]
            try spend(Self.length(of: literal, inJSON: inJSON))
            result += literal
            let found = lookup(String(rest[open.upperBound..<close.lowerBound]))
            try spend(Self.length(of: Substring(found.text), inJSON: inJSON))
            result += found.text
            rest = rest[close.upperBound...]
        }
        try spend(Self.length(of: rest, inJSON: inJSON))
        return result + rest
    }

    /// The bytes `text` takes as written: in a JSON string, with its escapes.
    private static func length(of text: Substring, inJSON: Bool) -> Int {
        guard inJSON else { return text.utf8.count }
        var length = 0
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x08, 0x09, 0x0A, 0x0C, 0x0D: length += 2
            case 0x00..<0x20: length += 6
            default: length += 1
            }
        }
        return length
    }

    private mutating func spend(_ bytes: Int) throws(TooLarge) {
        remaining -= bytes
        if remaining < 0 { throw TooLarge() }
    }

    private mutating func lookup(_ name: String) -> (value: JSONValue?, text: String) {
        if let found = looked[name] { return found }
        let value = value(named: name)
        let found: (value: JSONValue?, text: String)
        switch value {
        case .string(let text)?: found = (value, text)
        case let value?: found = (value, value.jsonText)
        case nil: found = (nil, "")
        }
        looked[name] = found
        return found
    }

    private mutating func value(named name: String) -> JSONValue? {
        if name == "method" { return .string(request.method.rawValue) }
        if name == "path" { return .string(request.path) }
        if name.hasPrefix("query.") {
            if query == nil { query = QueryParameters(request.query) }
            return query?[String(name.dropFirst(6))].map(JSONValue.string)
        }
        if name.hasPrefix("header.") { return request.headers[String(name.dropFirst(7))].map(JSONValue.string) }
        if name.hasPrefix("body") {
            guard let root = json.value else { return nil }
            return JSONPointer.value(at: String(name.dropFirst(4)), in: root)
        }
        return nil
    }
}
