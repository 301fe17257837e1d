/// A document a reader could not take: where (a JSON pointer) and what is wrong there.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where, as a JSON pointer (`/types/3/properties/0/type`; `""` is the whole document).
    public var pointer: String
    /// What is wrong there (`expected a string, found number`).
    public var message: String

    /// A problem at `pointer`.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// `pointer: message`, the root spelled `/`.
    public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }

    /// The words every reader of a document uses for a value of the wrong kind:
    /// `expected a string, found number`.
    public static func expected(_ kind: String, found value: JSONValue) -> String {
        "expected \(kind), found \(value.typeName)"
    }
}
