#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app folder a recording writes: files replaced whole and atomically, so that a server
/// reading it (`serve --watch`) never sees half of one.
struct AppFolder: Sendable {
    let url: URL

    func read(_ name: String) -> [UInt8]? {
        (try? Data(contentsOf: url.appending(path: name))).map { [UInt8]($0) }
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appending(path: name).path)
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        let file = url.appending(path: name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file, options: .atomic)
    }

    /// Why writing failed, in the system's words (`No such file or directory`) when it gave
    /// them, not the error's whole description.
    static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return message(posix.code.rawValue) }
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return message(posix.code.rawValue)
        }
        return "\(error)"
    }

    /// The system's message for an `errno`: `strerror`'s static C string, copied at once
    /// (marked as reviewed; Package.swift's header lists it).
    private static func message(_ code: Int32) -> String {
        unsafe String(cString: strerror(code))
    }

    /// A file name made of `words`: letters, digits, `.`, `-` and `_` kept, anything else a `-`.
    static func fileName(_ words: String) -> String {
        var name = ""
        for character in words {
            let kept: Character =
                character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_")
                ? character : "-"
            // Runs of `-` are one.
            if kept == "-", name.last == "-" { continue }
            name.append(kept)
        }
        name = String(name.drop { $0 == "-" || $0 == "." }.reversed().drop { $0 == "-" || $0 == "." }.reversed())
        return name.isEmpty ? "index" : String(name.prefix(80))
    }

    /// The extension a body of this content type is kept under.
    static func fileExtension(for contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") { return "json" }
        if type.hasPrefix("text/html") { return "html" }
        if type.contains("xml") { return "xml" }
        if type.hasPrefix("text/csv") { return "csv" }
        if type.hasPrefix("text/") { return "txt" }
        return "bin"
    }
}
