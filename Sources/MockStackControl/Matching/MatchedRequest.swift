import MockStackCore

/// A request as stubs and verifications look at it, with what they may ask of it read once and
/// only when asked: its body as JSON, its query parameters, the operation that takes it.
///
/// A class, so that every stub tried on one request shares it; it lives for that request (or
/// that journal read) on one thread only and is never stored.
final class MatchedRequest {
    let request: HTTPRequest
    /// The app it is for, by name; nil when no app is mounted there.
    let app: String?
    let session: String?
    /// Whether query parameter names ignore case (ServiceStack's do).
    let parameterNamesIgnoreCase: Bool
    let json: RequestBodyJSON
    private let findOperation: (() -> String?)?
    private var foundOperation: String??
    private var parsedQuery: QueryParameters?
    private var parsedForm: Result<MultipartForm, MultipartForm.Problem>?

    /// - Parameter operation: how to tell the operation that takes the request, asked at most once.
    init(
        _ request: HTTPRequest, app: String?, session: String?, parameterNamesIgnoreCase: Bool = false,
        operation: (() -> String?)? = nil
    ) {
        self.request = request
        self.app = app
        self.session = session
        self.parameterNamesIgnoreCase = parameterNamesIgnoreCase
        json = RequestBodyJSON(request)
        findOperation = operation
    }

    /// A request already answered, whose operation is known.
    convenience init(
        _ request: HTTPRequest, app: String?, session: String?, parameterNamesIgnoreCase: Bool, knownOperation: String?
    ) {
        self.init(request, app: app, session: session, parameterNamesIgnoreCase: parameterNamesIgnoreCase)
        foundOperation = .some(knownOperation)
    }

    /// The operation, service method or fixture that takes the request (nil: none).
    var operation: String? {
        if let foundOperation { return foundOperation }
        let found = findOperation?()
        foundOperation = .some(found)
        return found
    }

    var query: QueryParameters {
        if let parsedQuery { return parsedQuery }
        let parsed = QueryParameters(request.query)
        parsedQuery = parsed
        return parsed
    }

    /// Parts a body may hold for a stub to look at: more are refused as no form.
    static let maximumParts = 256

    /// The body's `multipart/form-data` parts, split once; why not, for a body that is no such form.
    var form: Result<MultipartForm, MultipartForm.Problem> {
        if let parsedForm { return parsedForm }
        let parsed: Result<MultipartForm, MultipartForm.Problem>
        if let type = request.headers["Content-Type"], type.lowercased().hasPrefix("multipart/form-data"),
            let boundary = MultipartForm.boundary(in: type)
        {
            parsed = Result { () throws(MultipartForm.Problem) in
                try MultipartForm(body: request.body, boundary: boundary, maximumParts: Self.maximumParts)
            }
        } else {
            parsed = .failure(MultipartForm.Problem(description: "the body is not multipart/form-data"))
        }
        parsedForm = parsed
        return parsed
    }
}
