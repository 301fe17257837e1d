/// The `fixture` behaviour: a static answer read from a file, encoded once at load and served
/// with a strong `ETag`; a matching `If-None-Match` gets `304 Not Modified`.
///
/// A class: routing tables hold it and hand it out on every request, and sharing one
/// reference is cheaper than copying its two responses field by field.
public final class FixtureResponse: Sendable {
    /// The full response, headers included, built once.
    public let response: HTTPResponse
    public let entityTag: EntityTag
    private let notModified: HTTPResponse

    /// Builds the answer. JSON files are validated and re-encoded compactly (key order kept);
    /// other files are served as they are.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - fileName: used to pick the content type from the extension.
    ///   - contentType: overrides the content type.
    ///   - status: the status to answer with.
    ///   - headers: extra headers;
    ///   - verbatim: serve a JSON file's bytes as they are, not re-encoded (a recorded answer).
    public init(
        bytes: [UInt8], fileName: String, contentType: String? = nil, status: Int = 200, headers: HTTPHeaders = [:],
        verbatim: Bool = false
    ) throws(JSONSyntaxError) {
        let type = contentType ?? Self.contentType(forFileName: fileName)
        let body =
            type.hasPrefix("application/json") && !verbatim ? try JSONParser().parse(bytes).root.encoded() : bytes
        entityTag = EntityTag(of: body)
        var all = headers
        all.set("Content-Type", type)
        all.set("ETag", entityTag.headerValue)
        response = HTTPResponse(status: status, headers: all, body: body).preparingHead()
        notModified = HTTPResponse(status: 304, headers: ["ETag": entityTag.headerValue]).preparingHead()
    }

    /// The answer to `request`: 304 when its `If-None-Match` names this body, else the body.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if response.status == 200, request.method == .get || request.method == .head,
            let tags = request.headers["If-None-Match"], entityTag.isMatched(byIfNoneMatch: tags)
        {
            return notModified
        }
        return response
    }

    /// The content type for a fixture file, from its extension.
    public static func contentType(forFileName name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "json": MediaType.json
        case "txt", "swift", "ts", "cs": MediaType.text
        case "html", "htm": MediaType.html
        case "xml": "application/xml; charset=utf-8"
        case "csv": "text/csv; charset=utf-8"
        default: MediaType.octetStream
        }
    }
}
