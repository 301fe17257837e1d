import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a runtime stub answers: a status, headers and a body — JSON (templated from the
/// request when asked), text, or a file's bytes — sent at once, after a fixed or seeded-random
/// delay, throttled, or replaced by a connection fault.
package struct StubAnswer: Sendable {
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

    /// The least a template answer may fill in; a server accepting larger bodies allows as much
    /// as it accepts (``StubStore/templateLimit``).
    package static let templateLimit = 16 * 1024 * 1024

    /// The answer to `request`.
    /// - Parameters:
    ///   - json: the request's body as JSON, parsed once for the matching and the template.
    ///   - stub: the stub's id, named when its template grows past `limit`.
    ///   - limit: the most bytes a template may fill in; past it the answer is a 500 in the
    ///     control plane's format that says so, which a test sees at once (cutting the answer
    ///     short would hand it something that looks right).
    func response(
        to request: HTTPRequest, json: RequestBodyJSON, stub: String, limit: Int, delivery: Delivery
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        var bytes: [UInt8] = []
        var template = StubTemplate(request: request, json: json, limit: limit)
        do throws(StubTemplate.TooLarge) {
            switch body {
            case .none: break
            case .json(let value):
                headers.set("Content-Type", MediaType.json)
                bytes = (self.template ? try template.fill(value) : value).encoded()
                // Escapes can make the encoding longer than what was filled in.
                if self.template, bytes.count > limit { throw StubTemplate.TooLarge() }
            case .text(let text):
                headers.set("Content-Type", MediaType.text)
                bytes = Array((self.template ? try template.fill(text) : text).utf8)
            case .bytes(let data):
                headers.set("Content-Type", MediaType.octetStream)
                bytes = data
            }
        } catch {
            var failure = PlainError.response(
                500,
                """
                Stub \(stub): its template: true answer would be larger than \(limit) bytes, the limit for a \
                templated answer
                """
            )
            failure.delivery = delivery
            return failure
        }
        for (index, (name, value)) in self.headers.enumerated() {
            // The first of a name replaces the body's default (Content-Type); the same name again
            // adds a line of its own, as a recorded answer's two Set-Cookie lines are.
            let repeated = self.headers[..<index].contains { $0.name.equalsIgnoringASCIICase(name) }
            if repeated { headers.add(name, value) } else { headers.set(name, value) }
        }
        return HTTPResponse(status: status, headers: headers, body: bytes, delivery: delivery)
    }
}
