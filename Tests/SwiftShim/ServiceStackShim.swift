// What the generated DTOs need from the ServiceStack Swift package, for `swiftc -typecheck` in
// SwiftGeneratorTests: the marker protocols, the AutoQuery base classes, QueryResponse,
// ResponseStatus, AuditBase, List, the protocols DTOs conform to, the TimeSpan reading and the @TimeSpan
// wrapper. Not part of any target.
import Foundation
public protocol IReturn { associatedtype Return: Codable }
public protocol IReturnVoid {}
public protocol IGet {}
public protocol IPost {}
public protocol IPut {}
public protocol IDelete {}
public protocol IPatch {}
public protocol IHasSessionId { var sessionId: String? { get set } }
public protocol IHasBearerToken { var bearerToken: String? { get set } }
public protocol IHasVersion { var version: Int? { get set } }
public protocol IMeta { var meta: [String: String] { get set } }
open class AuditBase: Codable {
    public var createdDate: Date?; public var createdBy: String?; public var modifiedDate: Date?
    public var modifiedBy: String?; public var deletedDate: Date?; public var deletedBy: String?
    required public init() {}
}
open class List<T: Codable>: Codable { public required init() {}; open func encode(to encoder: Encoder) throws {} }
open class QueryBase: Codable {
    public var skip: Int?
    public var take: Int?
    public var orderBy: String?
    public var orderByDesc: String?
    public var include: String?
    public var fields: String?
    public var meta: [String: String] = [:]
    required public init() {}
}
open class QueryDb<T: Codable>: QueryBase { required public init() { super.init() }; required public init(from decoder: Decoder) throws { try super.init(from: decoder) } }
open class QueryDb2<From: Codable, Into: Codable>: QueryBase { required public init() { super.init() }; required public init(from decoder: Decoder) throws { try super.init(from: decoder) } }
open class QueryData<T: Codable>: QueryBase { required public init() { super.init() }; required public init(from decoder: Decoder) throws { try super.init(from: decoder) } }
open class QueryData2<From: Codable, Into: Codable>: QueryBase { required public init() { super.init() }; required public init(from decoder: Decoder) throws { try super.init(from: decoder) } }
public class QueryResponse<T: Codable>: Codable { public var offset: Int?; public var total: Int?; public var results: [T] = []; public var meta: [String: String] = [:]; public var responseStatus: ResponseStatus? }
public class ResponseStatus: Codable { public var errorCode: String?; public var message: String? }
public class ResponseError: Codable {}
@propertyWrapper public struct TimeSpan: Codable { public var wrappedValue: TimeInterval?; public init(wrappedValue: TimeInterval?) { self.wrappedValue = wrappedValue } }
// As the ServiceStack package decodes them: a dictionary or array the JSON leaves out is empty
// (AutoQuery leaves out an empty `meta`).
extension KeyedDecodingContainer {
    public func decode<Key: Decodable & Hashable, Value: Decodable>(_ type: [Key: Value].Type, forKey key: K) throws -> [Key: Value] {
        try decodeIfPresent(type, forKey: key) ?? [:]
    }
    public func decode<Element: Decodable>(_ type: [Element].Type, forKey key: K) throws -> [Element] {
        try decodeIfPresent(type, forKey: key) ?? []
    }
}
extension KeyedDecodingContainer {
    /// The package's reading of a value it converts (a TimeSpan's ISO 8601 duration); plain decoding here.
    public func convertIfPresent<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T? { try decodeIfPresent(type, forKey: key) }
}
public class EmptyResponse: Codable { public var responseStatus: ResponseStatus? }
