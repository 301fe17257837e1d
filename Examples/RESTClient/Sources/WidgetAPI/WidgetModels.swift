/// `GET hello`.
public struct Greeting: Codable, Sendable, Equatable {
    public var result: String
    public init(result: String) { self.result = result }
}

/// One widget, as `GET widgets/{id}` answers it and `GET widgets` lists it.
public struct Widget: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var color: String?
    public var price: Double?
    public var inStock: Bool?
    public var tags: [String]?

    public init(id: Int, name: String, color: String? = nil, price: Double? = nil, inStock: Bool? = nil, tags: [String]? = nil) {
        (self.id, self.name, self.color, self.price, self.inStock, self.tags) = (id, name, color, price, inStock, tags)
    }
}

/// `GET widgets`: a page of widgets and how many there are.
public struct WidgetPage: Codable, Sendable, Equatable {
    public var total: Int
    public var results: [Widget]
}

/// `POST widgets`'s body.
public struct NewWidget: Codable, Sendable, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// `POST widgets`'s answer.
public struct CreatedWidget: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var created: Bool
    public init(id: Int, name: String, created: Bool) { (self.id, self.name, self.created) = (id, name, created) }
}
