public import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// `mockstack record`'s writer: every answer the target gives (``record(_:_:)``, before the
/// client gets it) goes into an app folder `serve` answers from — the manifest and the files it
/// names rewritten at once, atomically, so the folder is whole after each request.
///
/// Recording into a folder that already holds an app of the same kind merges: what it answers
/// stays, what is new is added, and an answer that differs from one it holds is a conflict —
/// the one it holds is kept, and the conflict reported (``conflicts``).
public final class Recorder: Sendable {
    /// The app's name, and its folder's.
    public let appName: String
    /// The kind written (``RecordingKind/auto`` resolved).
    public let kind: RecordingKind
    /// The app folder (`{out}/{app}`).
    public let folder: URL
    public let masking: SecretMasking
    private let appFolder: AppFolder
    private let state: Mutex<State>
    private let target: UpstreamTarget

    private struct State {
        var draft: any AppDraft
        var answers = 0
        var conflicts: [String] = []
        var writeFailure: String?
    }

    /// Checks the folder and the target and writes the manifest (and a ServiceStack target's
    /// metadata), so the folder is a whole app before the first request.
    /// - Parameters:
    ///   - out: the fixtures folder the app folder goes in (made if missing);
    ///   - client: the recording proxy's client: asked for the target's `/types/metadata`
    ///     (ServiceStack, and `auto`) or its root (to tell that it answers at all).
    ///   - unboundRouteVariables: the route variables a ServiceStack metadata document
    ///     publishes without a request property to bind them, by operation: the manifest names
    ///     them (`operations.{Op}.unboundRouteVariables`) so that the app loads. The façade
    ///     passes the emulation's own reading (`Recorder(out:appName:kind:client:masking:)`).
    /// - Throws: ``RecordingError`` naming what is wrong: `out` is a file, the folder holds an
    ///   app of another kind or a broken manifest, the target does not answer.
    public init(
        out: URL, appName: String, kind: RecordingKind, client: UpstreamClient, masking: SecretMasking,
        unboundRouteVariables: (_ metadata: [UInt8]) -> [(operation: String, variable: String)]
    ) throws(RecordingError) {
        guard Self.isValidName(appName) else {
            throw RecordingError("--app '\(appName)': an app name may use only letters, digits, '-' and '_'")
        }
        var isFolder = false
        if FileManager.default.fileExists(atPath: out.path, isDirectory: &isFolder), !isFolder {
            throw RecordingError("--out \(out.path) is a file; it must be a folder (app folders are written inside it)")
        }
        let folder = out.appending(path: appName)
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder {
            throw RecordingError("\(folder.path) is a file; the app folder would go there (choose another --app)")
        }
        let appFolder = AppFolder(url: folder)
        let existing = try ExistingManifest(folder: appFolder)
        var resolved = kind
        if let existingKind = existing?.kind {
            guard let known = RecordingKind(rawValue: existingKind), known != .auto else {
                throw RecordingError(
                    "\(folder.path)/app.json holds an app of kind '\(existingKind)', which record cannot add to")
            }
            if kind != .auto, known != kind {
                throw RecordingError(
                    """
                    \(folder.path) holds a \(existingKind) app; recording --kind \(kind.rawValue) into it would mix \
                    two 
                    """
                        + "kinds (choose another --app or --out, or --kind \(existingKind))")
            }
            resolved = known
        }
        var metadata: [UInt8]?
        if resolved == .auto || resolved == .servicestack {
            let answer = client.sendAndWait(
                HTTPRequest(method: .get, target: "/types/metadata", headers: ["Accept": "application/json"]))
            switch answer {
            case .failure(let failure):
                throw RecordingError("--target \(client.target): \(failure)")
            case .success(let response):
                let document = response.status == 200 ? try? JSONParser().parse(response.body).root : nil
                if document?["operations"]?.arrayValue != nil, document?["types"]?.arrayValue != nil {
                    metadata = response.body
                    resolved = .servicestack
                } else if resolved == .servicestack {
                    throw RecordingError(
                        "--target \(client.target): /types/metadata answered \(response.status) without ServiceStack's "
                            + """
                            metadata (operations and types); is it a ServiceStack host, and does it include its base \
                            path?
                            """
                    )
                } else {
                    resolved = .static
                }
            }
        } else if case .failure(let failure) = client.sendAndWait(HTTPRequest(method: .get, target: "/")) {
            throw RecordingError("--target \(client.target): \(failure)")
        }
        self.appName = appName
        self.kind = resolved
        self.folder = folder
        self.masking = masking
        self.appFolder = appFolder
        self.target = client.target
        let draft: any AppDraft =
            switch resolved {
            case .servicestack:
                ServiceStackDraft(
                    folder: appFolder, existing: existing,
                    unboundRouteVariables: metadata.map(unboundRouteVariables) ?? [])
            case .feathers: FeathersDraft(folder: appFolder, existing: existing)
            case .static, .auto: StaticDraft(folder: appFolder, existing: existing)
            }
        state = Mutex(State(draft: draft))
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let metadata { try appFolder.write(metadata, to: ServiceStackDraft.metadataFile) }
            try appFolder.write(PrettyJSON.bytes(.object(manifest(of: draft, existing: existing))), to: "app.json")
        } catch {
            throw RecordingError("cannot write \(folder.path): \(AppFolder.reason(error))")
        }
    }

    /// The manifest: name, mount, kind and description first, then the draft's keys.
    private func manifest(of draft: any AppDraft, existing: ExistingManifest? = nil) -> JSONObject {
        var manifest: JSONObject = ["name": .string(appName), "kind": .string(kind.rawValue)]
        if let mount = existing?.root["mount"] { manifest["mount"] = mount }
        manifest["description"] =
            existing?.root["description"] ?? .string("Recorded from \(target) by mockstack record.")
        manifest.merge(draft.manifest())
        return manifest
    }

    /// Takes in one exchange (the request as the client sent it, its path relative to the
    /// target) and rewrites what it changed. Any thread; one at a time.
    /// - Returns: the conflicts it found (empty nearly always).
    @discardableResult
    public func record(_ request: HTTPRequest, _ response: HTTPResponse) -> [String] {
        // The proxy refuses such a path before it is sent; an observer fed otherwise must not
        // keep a route that climbs out of the app.
        guard !UpstreamTarget.hasDotSegment(request.path) else { return [] }
        return state.withLock { state in
            let change = state.draft.add(request, response, masking: masking)
            state.conflicts += change.conflicts
            guard !change.files.isEmpty else { return change.conflicts }
            state.answers += 1
            do {
                for file in change.files { try appFolder.write(file.bytes, to: file.name) }
                // The manifest last: it names the files, which are there by then.
                try appFolder.write(
                    PrettyJSON.bytes(
                        .object(manifest(of: state.draft, existing: try? ExistingManifest(folder: appFolder)))),
                    to: "app.json")
            } catch {
                state.writeFailure = "cannot write \(folder.path): \(AppFolder.reason(error))"
            }
            return change.conflicts
        }
    }

    /// Every conflict so far, in the order found.
    public var conflicts: [String] { state.withLock { $0.conflicts } }

    /// What the recording has written, as `record` prints it when it stops:
    /// `{"event":"recorded","app","kind","folder","answers","conflicts":[…]}`.
    public var summary: JSONValue {
        state.withLock { state in
            var object: JSONObject = [
                "event": "recorded", "app": .string(appName), "kind": .string(kind.rawValue),
                "folder": .string(folder.path),
                "answers": .number(JSONNumber(state.answers)),
                "conflicts": .array(state.conflicts.map(JSONValue.string)),
            ]
            if let failure = state.writeFailure { object["error"] = .string(failure) }
            return .object(object)
        }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

/// A recording that cannot start, with what is wrong.
public struct RecordingError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
