/// RFC 6901 JSON pointers, used to say *where* in a document something is wrong.
public enum JSONPointer {
    /// Appends an object key to a pointer, escaping `~` and `/`.
    public static func appending(_ token: String, to pointer: String) -> String {
        pointer + "/" + token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// Appends an array index to a pointer.
    public static func appending(_ index: Int, to pointer: String) -> String {
        pointer + "/" + String(index)
    }
}
