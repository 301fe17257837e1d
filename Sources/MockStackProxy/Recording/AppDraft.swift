import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One kind's picture of the app being recorded: what the folder held, plus what came back
/// since. Held under the recorder's lock.
protocol AppDraft: Sendable {
    /// The manifest's kind.
    static var kind: RecordingKind { get }
    /// Takes in one exchange; returns the files to write besides the manifest.
    mutating func add(_ request: HTTPRequest, _ response: HTTPResponse, masking: SecretMasking) -> DraftChange
    /// The manifest as it now stands (`name` and `kind` are the recorder's).
    func manifest() -> JSONObject
}

/// What an exchange changed: the files to write before the manifest (none: nothing new, the
/// same answer was recorded already or the exchange is not one to keep), and the answers that
/// differ from what the folder already answers (the first is kept).
struct DraftChange: Sendable {
    var files: [(name: String, bytes: [UInt8])] = []
    var conflicts: [String] = []

    static let unchanged = DraftChange()
}

/// A manifest read back, its problems told as the recorder's own error.
struct ExistingManifest {
    let root: JSONObject

    init?(folder: AppFolder) throws(RecordingError) {
        guard let bytes = folder.read("app.json") else { return nil }
        guard let parsed = try? JSONParser().parse(bytes).root, let object = parsed.objectValue else {
            throw RecordingError(
                "\(folder.url.appending(path: "app.json").path) is not a JSON object: fix or remove it first")
        }
        root = object
    }

    var kind: String? { root["kind"]?.stringValue }
}
