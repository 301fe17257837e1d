import MockStackCore

/// Typed access to one JSON object of a metadata document, throwing with the JSON pointer of
/// whatever is missing or of the wrong type.
struct MetadataReader {
    let object: JSONObject
    /// Where the object is, rendered as a JSON pointer only for an error: a document of a few
    /// hundred types would otherwise build a pointer string for every object it holds.
    private let location: Location?

    /// A step from the document's root: a member, or an element of an array member.
    final class Location: Sendable {
        let parent: Location?
        let key: String
        let index: Int?

        init(parent: Location?, key: String, index: Int?) {
            self.parent = parent
            self.key = key
            self.index = index
        }

        var pointer: String {
            let base = (parent?.pointer ?? "") + "/" + key
            return index.map { base + "/\($0)" } ?? base
        }
    }

    /// The document's root object.
    init(root value: JSONValue) throws(MetadataError) {
        try self.init(value, location: nil)
    }

    private init(_ value: JSONValue, location: Location?) throws(MetadataError) {
        guard let object = value.objectValue else {
            throw MetadataError(pointer: location?.pointer ?? "", message: "expected an object, found \(value.typeName)")
        }
        self.object = object
        self.location = location
    }

    /// The object's JSON pointer.
    var pointer: String { location?.pointer ?? "" }

    private func path(_ key: String) -> String { pointer + "/" + key }

    func string(_ key: String) throws(MetadataError) -> String {
        guard let value = try optionalString(key) else {
            throw MetadataError(pointer: path(key), message: "'\(key)' is required")
        }
        return value
    }

    func optionalString(_ key: String) throws(MetadataError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw MetadataError(pointer: path(key), message: "expected a string, found \(other.typeName)")
        }
    }

    /// An optional boolean: absent means false (metadata emits them only when true).
    func flag(_ key: String) throws(MetadataError) -> Bool {
        switch object[key] {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        case let other?: throw MetadataError(pointer: path(key), message: "expected true or false, found \(other.typeName)")
        }
    }

    func strings(_ key: String) throws(MetadataError) -> [String] {
        var result: [String] = []
        for (index, element) in try values(key).enumerated() {
            guard let text = element.stringValue else {
                throw MetadataError(pointer: path(key) + "/\(index)", message: "expected a string, found \(element.typeName)")
            }
            result.append(text)
        }
        return result
    }

    func array(_ key: String) throws(MetadataError) -> [MetadataReader] {
        var result: [MetadataReader] = []
        for (index, element) in try values(key).enumerated() {
            result.append(try MetadataReader(element, location: Location(parent: location, key: key, index: index)))
        }
        return result
    }

    func object(_ key: String, required: Bool) throws(MetadataError) -> JSONObject? {
        guard let child = try child(key) else {
            if required { throw MetadataError(pointer: path(key), message: "'\(key)' is required") }
            return nil
        }
        return child.object
    }

    func child(_ key: String) throws(MetadataError) -> MetadataReader? {
        switch object[key] {
        case nil, .null?: return nil
        case let value?: return try MetadataReader(value, location: Location(parent: location, key: key, index: nil))
        }
    }

    private func values(_ key: String) throws(MetadataError) -> [JSONValue] {
        switch object[key] {
        case nil, .null?: return []
        case .array(let elements)?: return elements
        case let other?: throw MetadataError(pointer: path(key), message: "expected an array, found \(other.typeName)")
        }
    }
}
