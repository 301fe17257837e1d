public import MockStackCore

/// What an operation does once its request DTO is bound: one of the named behaviours a
/// manifest assigns (`echo`, `template`, `throwType`, `validate`, `upload`, `auth`, `void`, …).
///
/// Behaviours are values called on event-loop threads: they must not block, and any state
/// they keep (sessions, tokens) is guarded by the app's own lock.
public protocol OperationBehaviour: Sendable {
    /// Runs the operation. Throwing a ``ServiceError`` answers as ServiceStack answers a
    /// thrown .NET exception (docs/servicestack.md#error-responses).
    func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult

    /// Whether the operation issues tokens (Authenticate, GetAccessToken), and so must still
    /// run when the request carries an expired or invalid bearer token.
    var issuesTokens: Bool { get }

    /// The behaviour made ready for its operation once its return type is known (a template
    /// resolves its keys and types against it). By default, itself.
    func prepared(returnShape: ValueShape?, coercion: ValueCoercion) -> any OperationBehaviour
}

extension OperationBehaviour {
    public var issuesTokens: Bool { false }

    public func prepared(returnShape: ValueShape?, coercion: ValueCoercion) -> any OperationBehaviour { self }
}

/// One invocation of an operation: the bound request and what the service can see of the
/// HTTP request around it. A class, so that behaviours and templates pass it without copying
/// (and retaining) every value it holds.
public final class ServiceCall: Sendable {
    public let operation: ServiceOperation
    /// The bound request DTO.
    public let request: DTOObject
    public let http: HTTPRequest
    public let input: RequestInput
    /// The verb the operation was invoked with, after `X-Http-Method-Override`.
    public let verb: String
    /// The authenticated user, if the request carried a valid token or session.
    public let session: AuthSession?
    /// The moment of the request.
    public let now: DateTimeValue
    /// Type resolution, value coercion and settings of the app.
    public let context: AppContext

    public init(
        operation: ServiceOperation, request: DTOObject, http: HTTPRequest, input: RequestInput, verb: String,
        session: AuthSession?, now: DateTimeValue, context: AppContext
    ) {
        self.operation = operation
        self.request = request
        self.http = http
        self.input = input
        self.verb = verb
        self.session = session
        self.now = now
        self.context = context
    }

    /// The path as the service sees it (`/api/SendDefault`): relative to the app's mount.
    public var pathInfo: String { PercentDecoding.decode(http.path) }

    /// Files uploaded with a multipart request, in order.
    public var files: [UploadedFile] { input.files }
}

/// What an operation answers.
public struct ServiceResult: Sendable {
    public enum Body: Sendable {
        /// A response DTO (or list of them), written as the operation's return type.
        case dto(DTOValue)
        /// No content: 204.
        case empty
        /// A string result written unquoted (`HelloString`), or raw bytes with their type.
        case raw([UInt8], contentType: String)
        /// An HTTP response taken as it is (`RawResponse`'s bare 418).
        case response(HTTPResponse)
    }

    public var body: Body
    public var status: Int
    public var headers: HTTPHeaders
    /// How to write a ``Body/dto(_:)`` body when it is not the operation's return type (a
    /// service that returns its request DTO as it is).
    public var shape: ValueShape?

    public init(_ body: Body, status: Int = 200, headers: HTTPHeaders = [:], shape: ValueShape? = nil) {
        self.body = body
        self.status = status
        self.headers = headers
        self.shape = shape
    }

    public static func dto(_ object: DTOObject, headers: HTTPHeaders = [:]) -> ServiceResult {
        ServiceResult(.dto(.object(object)), headers: headers)
    }

    public static let void = ServiceResult(.empty, status: 204)

    public static func text(_ text: String, contentType: String = MediaType.text) -> ServiceResult {
        ServiceResult(.raw(Array(text.utf8), contentType: contentType))
    }
}
