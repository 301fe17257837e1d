#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackCore

/// What a runtime stub answers: a status, headers and a body — JSON (templated from the
/// request when asked), text, or a file's bytes — sent at once, after a fixed or seeded-random
/// delay, throttled, or replaced by a connection fault.
struct StubAnswer: Sendable {
    var status = 200
    var headers: [(name: String, value: String)] = []
    var body: Body = .none
    /// `{{method}}`, `{{path}}`, `{{query.NAME}}`, `{{header.NAME}}`, `{{body/json/pointer}}`
    /// in the body's text are replaced by the request's values.
    var template = false
    var misbehaviour = Misbehaviour()
    /// Where the stub's random delays start.
    var seed: UInt64?

    enum Body: Sendable {
        case none
        case json(JSONValue)
        case text(String)
        case bytes([UInt8])
    }

    func response(to request: HTTPRequest, delivery: Delivery) -> HTTPResponse {
        var headers = HTTPHeaders()
        var bytes: [UInt8] = []
        switch body {
        case .none: break
        case .json(let value):
            headers.set("Content-Type", MediaType.json)
            bytes = (template ? Self.fill(value, from: request) : value).encoded()
        case .text(let text):
            headers.set("Content-Type", MediaType.text)
            bytes = Array((template ? Self.fill(text, from: request) : text).utf8)
        case .bytes(let data):
            headers.set("Content-Type", MediaType.octetStream)
            bytes = data
        }
        for (name, value) in self.headers { headers.set(name, value) }
        return HTTPResponse(status: status, headers: headers, body: bytes, delivery: delivery)
    }

    // MARK: Templates

    private static func fill(_ value: JSONValue, from request: HTTPRequest) -> JSONValue {
        switch value {
        case .string(let text):
            // A string that is one placeholder naming a JSON value takes that value, type and all.
            if text.hasPrefix("{{body"), text.hasSuffix("}}"), text.dropFirst(2).dropLast(2).allSatisfy({ $0 != "{" && $0 != "}" }),
               let found = lookup(String(text.dropFirst(2).dropLast(2)), in: request) {
                return found
            }
            return .string(fill(text, from: request))
        case .array(let items): return .array(items.map { fill($0, from: request) })
        case .object(let object): return .object(JSONObject(object.members.map { (key: $0.key, value: fill($0.value, from: request)) }))
        default: return value
        }
    }

    private static func fill(_ text: String, from request: HTTPRequest) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            result += rest[..<open.lowerBound]
            let name = String(rest[open.upperBound..<close.lowerBound])
            switch lookup(name, in: request) {
            case .string(let value)?: result += value
            case let value?: result += value.jsonText
            case nil: result += ""
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    private static func lookup(_ name: String, in request: HTTPRequest) -> JSONValue? {
        if name == "method" { return .string(request.method.rawValue) }
        if name == "path" { return .string(request.path) }
        if name.hasPrefix("query.") { return QueryParameters(request.query)[String(name.dropFirst(6))].map(JSONValue.string) }
        if name.hasPrefix("header.") { return request.headers[String(name.dropFirst(7))].map(JSONValue.string) }
        if name.hasPrefix("body") {
            guard let json = try? JSONParser().parse(request.body).root else { return nil }
            return JSONPointer.value(at: String(name.dropFirst(4)), in: json)
        }
        return nil
    }
}
