#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension HTTPRequest {
    /// `Authorization: Basic base64(user:password)`, decoded; nil without such a header.
    public var basicCredentials: (userName: String, password: String)? {
        guard let authorization = headers["Authorization"], authorization.count > 6,
            authorization.hasPrefixIgnoringASCIICase("basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6).trimmingASCIISpace()))
        else { return nil }
        let text = String(decoding: decoded, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
