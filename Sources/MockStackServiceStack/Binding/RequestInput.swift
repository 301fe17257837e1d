public import MockStackCore

/// Everything a request carries that binding reads, split out of the HTTP request once:
/// query parameters, form fields (urlencoded or multipart), uploaded files and the body.
public struct RequestInput: Sendable {
    public var query: [(name: String, value: String)]
    /// urlencoded fields, or multipart parts without a file name, in order.
    public var form: [(name: String, value: String)]
    public var files: [UploadedFile]
    public var body: Body

    /// What the body holds, by its Content-Type.
    public enum Body: Sendable {
        case none
        case json([UInt8])
        case jsv(String)
        /// A form body, already read into ``RequestInput/form`` and ``RequestInput/files``.
        case form
        /// A body of a type binding does not read (`text/plain`, `application/xml`, …).
        case other(contentType: String)
    }

    /// Limits that keep hostile input from costing more than it should.
    public struct Limits: Sendable {
        /// Query parameters plus form fields plus multipart parts.
        public var maximumFields: Int

        public init(maximumFields: Int = 1_000) {
            self.maximumFields = maximumFields
        }
    }

    /// Reads a request; a malformed form or multipart body, or too many fields, is a 400
    /// `SerializationException` in the emulated server's format.
    public init(_ request: HTTPRequest, limits: Limits = Limits()) throws(ServiceError) {
        query = try Self.pairs(request.query ?? "", limit: limits.maximumFields)
        form = []
        files = []
        guard !request.body.isEmpty else {
            body = .none
            return
        }
        let contentType = request.headers["Content-Type"] ?? ""
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingASCIISpace().lowercased() } ?? ""
        switch mediaType {
        case _ where mediaType == "application/json" || mediaType == "text/json" || mediaType.hasSuffix("+json"):
            body = .json(request.body)
        case "application/jsv", "text/jsv":
            body = .jsv(String(decoding: request.body, as: UTF8.self))
        case "application/x-www-form-urlencoded":
            form = try Self.pairs(
                String(decoding: request.body, as: UTF8.self), limit: limits.maximumFields - query.count)
            body = .form
        case "multipart/form-data":
            guard let boundary = MultipartForm.boundary(in: contentType) else {
                throw ServiceError(
                    .serialization, "multipart/form-data request has no boundary parameter in its Content-Type")
            }
            let multipart: MultipartForm
            do {
                multipart = try MultipartForm(
                    body: request.body, boundary: boundary, maximumParts: max(0, limits.maximumFields - query.count))
            } catch {
                throw ServiceError(.serialization, "Invalid multipart/form-data request: \(error.description)")
            }
            for part in multipart.parts {
                if let fileName = part.fileName {
                    files.append(
                        UploadedFile(
                            name: part.name, fileName: fileName, contentType: part.contentType, bytes: part.body))
                } else {
                    form.append((part.name, String(decoding: part.body, as: UTF8.self)))
                }
            }
            body = .form
        default:
            body = .other(contentType: contentType.isEmpty ? "(none)" : contentType)
        }
    }

    /// The first value of a query parameter or form field, by case-insensitive name.
    public func parameter(_ name: String) -> String? {
        Self.value(named: name, in: query) ?? Self.value(named: name, in: form)
    }

    /// The first value of `name` (any ASCII case) among `pairs`. By index, the names read in
    /// place: `first(where:)` copies each pair it passes.
    static func value(named name: String, in pairs: [(name: String, value: String)]) -> String? {
        for index in pairs.indices where pairs[index].name.equalsIgnoringASCIICase(name) { return pairs[index].value }
        return nil
    }

    /// `a=1&b=2` → pairs (``URLEncodedPairs``), refused past `limit`.
    static func pairs(_ text: String, limit: Int) throws(ServiceError) -> [(name: String, value: String)] {
        guard let pairs = URLEncodedPairs.split(text, limit: limit) else {
            throw ServiceError(
                .serialization, "The request has more than \(max(limit, 0)) query parameters and form fields")
        }
        return pairs
    }
}

/// A file part of a multipart request, as ServiceStack's `IHttpFile` exposes it.
public struct UploadedFile: Sendable, Equatable {
    /// The form field name.
    public var name: String
    public var fileName: String
    /// The part's Content-Type as sent, if any.
    public var contentType: String?
    public var bytes: [UInt8]

    public init(name: String, fileName: String, contentType: String?, bytes: [UInt8]) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.bytes = bytes
    }
}
