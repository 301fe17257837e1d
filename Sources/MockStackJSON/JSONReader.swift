/// Typed reads of one JSON object of a larger document, throwing, with the JSON pointer of
/// whatever is missing or of the wrong kind, a ``JSONReadError``: what the emulations use to read
/// a document they are given (an app's metadata), so that a mistake names where it is.
///
/// The object's place in the document is kept as steps and spelled as a pointer only for an
/// error: a document of a few hundred types would otherwise build a pointer string for every
/// object it holds. An absent member and `null` read alike (absent, or empty for a list).
public struct JSONReader: Sendable {
    /// The object read.
    public let object: JSONObject
    private let location: JSONLocation?

    /// The document's root, which must be an object.
    public init(root value: JSONValue) throws(JSONReadError) {
        try self.init(value, location: nil)
    }

    private init(_ value: JSONValue, location: JSONLocation?) throws(JSONReadError) {
        guard let object = value.objectValue else {
            throw JSONReadError(
                pointer: location?.pointer ?? "", message: JSONReadError.expected("an object", found: value))
        }
        self.object = object
        self.location = location
    }

    /// The object's JSON pointer (`""` for the root).
    public var pointer: String { location?.pointer ?? "" }

    /// The pointer of the member `key`.
    public func pointer(of key: String) -> String { JSONPointer.appending(key, to: pointer) }

    /// A string member that must be there.
    public func string(_ key: String) throws(JSONReadError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    /// A string member, or nil when absent.
    public func optionalString(_ key: String) throws(JSONReadError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?:
            throw JSONReadError(pointer: pointer(of: key), message: JSONReadError.expected("a string", found: other))
        }
    }

    /// A boolean member; absent means false.
    public func flag(_ key: String) throws(JSONReadError) -> Bool {
        switch object[key] {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        case let other?:
            throw JSONReadError(
                pointer: pointer(of: key), message: JSONReadError.expected("true or false", found: other))
        }
    }

    /// An array of strings (empty when absent).
    public func strings(_ key: String) throws(JSONReadError) -> [String] {
        var result: [String] = []
        for (index, element) in try values(key).enumerated() {
            guard let text = element.stringValue else {
                throw JSONReadError(
                    pointer: JSONPointer.appending(index, to: pointer(of: key)),
                    message: JSONReadError.expected("a string", found: element))
            }
            result.append(text)
        }
        return result
    }

    /// An array of objects, each read by a reader of its own (empty when absent).
    public func array(_ key: String) throws(JSONReadError) -> [JSONReader] {
        var result: [JSONReader] = []
        for (index, element) in try values(key).enumerated() {
            result.append(try JSONReader(element, location: JSONLocation(parent: location, key: key, index: index)))
        }
        return result
    }

    /// An object member, or nil when absent and not `required`.
    public func object(_ key: String, required: Bool) throws(JSONReadError) -> JSONObject? {
        guard let child = try child(key) else {
            if required { throw missing(key) }
            return nil
        }
        return child.object
    }

    /// A reader of the object member `key`, or nil when absent.
    public func child(_ key: String) throws(JSONReadError) -> JSONReader? {
        switch object[key] {
        case nil, .null?: return nil
        case let value?: return try JSONReader(value, location: JSONLocation(parent: location, key: key, index: nil))
        }
    }

    private func values(_ key: String) throws(JSONReadError) -> [JSONValue] {
        switch object[key] {
        case nil, .null?: return []
        case .array(let elements)?: return elements
        case let other?:
            throw JSONReadError(pointer: pointer(of: key), message: JSONReadError.expected("an array", found: other))
        }
    }

    private func missing(_ key: String) -> JSONReadError {
        JSONReadError(pointer: pointer(of: key), message: "'\(key)' is required")
    }
}

/// A member of a document, or an element of an array member, as steps from the root.
private final class JSONLocation: Sendable {
    let parent: JSONLocation?
    let key: String
    let index: Int?

    init(parent: JSONLocation?, key: String, index: Int?) {
        self.parent = parent
        self.key = key
        self.index = index
    }

    var pointer: String {
        let member = JSONPointer.appending(key, to: parent?.pointer ?? "")
        return index.map { JSONPointer.appending($0, to: member) } ?? member
    }
}
