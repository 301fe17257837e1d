/// Media types mockstack sends.
public enum MediaType {
    public static let json = "application/json; charset=utf-8"
    public static let text = "text/plain; charset=utf-8"
    public static let html = "text/html; charset=utf-8"
    public static let octetStream = "application/octet-stream"
    /// What ServiceStack serves scripts a browser may load with (and PHP DTOs, as it has them).
    public static let javaScript = "application/javascript"
}
