import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request DTO: its type name is the operation's name, and it names its response type.
public protocol ServiceRequest: Encodable, Sendable {
    associatedtype Response: Decodable & Sendable
}

/// A deliberately small client with ServiceStack.Swift's `JsonServiceClient` wire shape: it
/// POSTs the DTO as JSON to `{baseUrl}/api/{TypeName}` with `Accept: application/json`, decodes
/// a 2xx body as the response type, and turns any other status into a ``WebServiceException``
/// filled from the body's `responseStatus`.
public struct JsonServiceClient: Sendable {
    public let baseUrl: URL
    private let session: URLSession

    public init(baseUrl: URL, session: URLSession = .shared) {
        self.baseUrl = baseUrl
        self.session = session
    }

    /// Sends `request` and decodes its response.
    public func post<Request: ServiceRequest>(_ request: Request) async throws -> Request.Response {
        var urlRequest = URLRequest(url: baseUrl.appendingPathComponent("api").appendingPathComponent(String(describing: Request.self)))
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.httpBody = try JSONEncoder().encode(request)

        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        guard (200..<300).contains(http.statusCode) else {
            throw WebServiceException(statusCode: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: data)
        }
        return try JSONDecoder().decode(Request.Response.self, from: data)
    }
}

/// An error answer: the status, and the `responseStatus` the server put in the body.
public struct WebServiceException: Error, Sendable {
    public let statusCode: Int
    public let responseStatus: ResponseStatus

    public var errorCode: String { responseStatus.errorCode ?? String(statusCode) }
    public var message: String? { responseStatus.message }
    public var fieldErrors: [ResponseError] { responseStatus.errors ?? [] }

    init(statusCode: Int, contentType: String?, body: Data) {
        self.statusCode = statusCode
        // Like the real client, only a JSON body is read; any DTO's `responseStatus` will do.
        let isJSON = contentType?.lowercased().contains("json") ?? false
        let envelope = isJSON ? try? JSONDecoder().decode(ErrorEnvelope.self, from: body) : nil
        responseStatus = envelope?.responseStatus ?? ResponseStatus(errorCode: String(statusCode))
    }

    private struct ErrorEnvelope: Decodable {
        var responseStatus: ResponseStatus?
    }
}
