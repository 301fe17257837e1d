/// A mounted route close to the path of a request nothing took (the journal's `"nearest"`):
/// what the request may have meant.
public struct NearestRoute: Sendable, Equatable {
    /// The route's whole path, mount included (`/test/api/Hello`).
    public var path: String
    /// The app it belongs to.
    public var app: String
    /// The operation or service it reaches (`Hello`).
    public var name: String
    /// The methods it takes (`["ANY"]`, `["GET", "POST"]`).
    public var methods: [String]

    /// A route as given, to compare with what the journal listed.
    public init(path: String, app: String, name: String, methods: [String]) {
        self.path = path
        self.app = app
        self.name = name
        self.methods = methods
    }

    init(_ json: JSONValue) {
        path = json["path"]?.stringValue ?? ""
        app = json["app"]?.stringValue ?? ""
        name = json["name"]?.stringValue ?? ""
        methods = json["methods"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
