// DTOs for three of the `test` app's operations, shaped as `x swift` generates them
// (camelCase keys, optional fields).

public struct ResponseStatus: Codable, Sendable, Equatable {
    public var errorCode: String?
    public var message: String?
    public var stackTrace: String?
    public var errors: [ResponseError]?

    public init(errorCode: String? = nil, message: String? = nil, stackTrace: String? = nil, errors: [ResponseError]? = nil) {
        self.errorCode = errorCode
        self.message = message
        self.stackTrace = stackTrace
        self.errors = errors
    }
}

public struct ResponseError: Codable, Sendable, Equatable {
    public var errorCode: String?
    public var fieldName: String?
    public var message: String?
}

public struct Hello: ServiceRequest {
    public typealias Response = HelloResponse
    public var name: String
    public var title: String?

    public init(name: String, title: String? = nil) {
        self.name = name
        self.title = title
    }
}

public struct HelloResponse: Decodable, Sendable {
    public var result: String
}

public struct ThrowType: ServiceRequest {
    public typealias Response = ThrowTypeResponse
    public var type: String?
    public var message: String?

    public init(type: String?, message: String? = nil) {
        self.type = type
        self.message = message
    }
}

public struct ThrowTypeResponse: Decodable, Sendable {
    public var responseStatus: ResponseStatus?
}

public struct ThrowValidation: ServiceRequest {
    public typealias Response = ThrowValidationResponse
    public var age: Int?
    public var required: String?
    public var email: String?

    public init(age: Int? = nil, required: String? = nil, email: String? = nil) {
        self.age = age
        self.required = required
        self.email = email
    }
}

public struct ThrowValidationResponse: Decodable, Sendable {
    public var age: Int?
    public var required: String?
    public var email: String?
    public var responseStatus: ResponseStatus?
}
