import Foundation
@testable import MockStack
@testable import MockStackFixtures
import MockStackCore
import Testing
import TestSupport

/// The load cache (docs/load-cache.md) as plain values: records written by a full load, checked
/// by `stat` (and by content where `stat` cannot be trusted) at the next, and every difference a
/// miss that loads and checks everything.
@Suite(.timeLimit(.minutes(3)))
struct LoadCacheTests {
    /// A temporary folder with copies of the shipped `test` (ServiceStack) and `example` (static)
    /// apps, a cache folder and a stand-in for the executable.
    struct Scene {
        let root: URL
        var fixtures: URL { root.appendingPathComponent("fixtures") }
        var cache: URL { root.appendingPathComponent("cache") }
        var executable: URL { root.appendingPathComponent("mockstack") }

        init() throws {
            root = try makeTemporaryDirectory()
            try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
            for app in ["test", "example"] {
                try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Fixtures/\(app)"), to: fixtures.appendingPathComponent(app))
            }
            try Data("binary".utf8).write(to: executable)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        func key(apps: [String]? = nil) -> LoadCacheKey? {
            LoadCacheKey(version: "0.1.0 (test)", folders: [fixtures], apps: apps, fixedDate: nil, executable: executable)
        }

        /// A load through the cache, its clock `seconds` from now (later than the files' times
        /// by more than the racy margin: they are trusted by `stat`; by less: read to be sure).
        func load(apps: [String]? = nil, at seconds: Int64 = 0,
                  onBuildFailure: @escaping LoadCache.BuildFailure = { _, _ in }) throws -> LoadCache.Outcome {
            let (everything, files) = try FixtureFolders([fixtures]).sourceOnDisk()
            let source = try FixtureFolders.narrowed(everything, to: apps)
            let moment = FileSignature.now() + seconds * 1_000_000_000
            return try LoadCache(folder: cache, clock: { moment }).load(loader: .standard, source: source, files: files, key: key(apps: apps),
                                                                       unavailable: AppLoader.unavailable, onBuildFailure: onBuildFailure)
        }

        /// The one record's bytes.
        func recordBytes() throws -> Data { try Data(contentsOf: cache.appendingPathComponent(try #require(records().first))) }

        /// The apps of an uncached load.
        func fullLoad() throws -> [any MockApp] { try AppLoader.standard.load(from: FixtureFolders([fixtures]).source()) }

        func records() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasSuffix(".record") } }

        func write(_ text: String, to path: String) throws { try Data(text.utf8).write(to: fixtures.appendingPathComponent(path)) }
    }

    static let requests: [HTTPRequest] = [
        HTTPRequest(method: .get, target: "/api/Hello?name=World"),
        HTTPRequest(method: .post, target: "/api/Hello", headers: ["Content-Type": "application/json"], body: Array(#"{"name":"Cache"}"#.utf8)),
        HTTPRequest(method: .get, target: "/json/reply/Hello?name=JSON"),
        HTTPRequest(method: .get, target: "/api/NoSuchOperation"),
        HTTPRequest(method: .get, target: "/types/metadata"),
    ]

    @Test func aSecondLoadOfTheSameBytesHitsAndAnswersAsTheFullLoad() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let first = try scene.load()
        #expect(first.note.hasPrefix("miss (no record); record written to \(scene.cache.path)/"))
        #expect(scene.records().count == 1)
        #expect(!first.apps.contains { !$0.isBuilt })
        let second = try scene.load()
        #expect(second.note.hasPrefix("hit ("))
        #expect(second.apps.map(\.name) == ["example", "test"])
        #expect(second.apps.map(\.mount) == ["/example", "/test"])
        #expect(second.apps.map(\.kind) == ["static", "servicestack"])
        #expect(second.apps[0].isBuilt == false)
        #expect(!second.apps[1].isBuilt)
        let deferred = second.apps[1].servedApp
        let eager = first.apps[1].servedApp
        for request in Self.requests {
            let (want, got) = (eager.respond(to: request), deferred.respond(to: request))
            #expect(got.status == want.status, "\(request.target)")
            #expect(got.headers == want.headers, "\(request.target)")
            #expect(got.body == want.body, "\(request.target)")
        }
        #expect(deferred.routes == eager.routes)
        #expect(deferred.parameterNamesIgnoreCase == eager.parameterNamesIgnoreCase)
        #expect(deferred.operation(for: Self.requests[0]) == "Hello")
    }

    @Test func aChangedByteAnAddedAppOrAnotherBinaryIsAMiss() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load()
        #expect(try scene.load().note.hasPrefix("hit ("))

        let manifest = scene.fixtures.appendingPathComponent("example/app.json")
        try (try String(contentsOf: manifest, encoding: .utf8) + " ").write(to: manifest, atomically: true, encoding: .utf8)
        #expect(try scene.load().note.hasPrefix("miss (the fixtures changed: \(scene.fixtures.relativePath)/example/app.json changed); record written to"))
        #expect(try scene.load().note.hasPrefix("hit ("))

        try FileManager.default.createDirectory(at: scene.fixtures.appendingPathComponent("more"), withIntermediateDirectories: true)
        try scene.write(#"{"kind": "static", "routes": []}"#, to: "more/app.json")
        let added = try scene.load()
        #expect(added.note.hasPrefix("miss (the fixtures changed: an app folder was added or removed)"))
        #expect(added.apps.map(\.name) == ["example", "more", "test"])

        // Another selection is another key, so another record.
        #expect(try scene.load(apps: ["test"]).note.hasPrefix("miss (no record)"))
        #expect(try scene.load(apps: ["test"]).note.hasPrefix("hit ("))
        #expect(scene.records().count == 2)

        // A rebuilt binary: the same size, a new modification time and file.
        let before = try #require(scene.key())
        try FileManager.default.removeItem(at: scene.executable)
        try Data("binary".utf8).write(to: scene.executable)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: scene.executable.path)
        #expect(try #require(scene.key()) != before)
        #expect(try scene.load().note.hasPrefix("miss (no record)"))
    }

    @Test func aTruncatedOrGarbageRecordIsAMiss() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load()
        let record = scene.cache.appendingPathComponent(try #require(scene.records().first))
        let bytes = try Data(contentsOf: record)
        for damaged in [bytes.prefix(bytes.count - 1), bytes.prefix(40), Data("garbage".utf8), Data(), bytes + Data([0])] {
            try damaged.write(to: record)
            let outcome = try scene.load()
            #expect(outcome.note.hasPrefix("miss (the record is unreadable or corrupt); record written to"))
            #expect(outcome.apps.map(\.name) == ["example", "test"])
        }
        // One flipped bit anywhere: the record's own digest no longer matches.
        let good = [UInt8](try Data(contentsOf: record))
        for index in [LoadRecord.magic.count + 5, good.count / 2, good.count - 1] {
            var flipped = good
            flipped[index] ^= 1
            try Data(flipped).write(to: record)
            #expect(try scene.load().note.hasPrefix("miss (the record is unreadable or corrupt)"))
        }
        // Another key's record under this key's name.
        let other = try #require(LoadRecord(decoding: [UInt8](try Data(contentsOf: record))))
        try Data(LoadRecord(key: "another key", madeAt: 0, entries: [], apps: []).encoded).write(to: record)
        #expect(try scene.load().note.hasPrefix("miss (the record is for another key)"))
        #expect(other.key == scene.key()?.text)
    }

    @Test func aRecordRoundTripsAndDecodingRefusesWhatIsOutOfBounds() throws {
        let signature = FileSignature(device: 1, inode: 2, size: 3, modified: -4, changed: .max)
        let record = LoadRecord(key: "key", madeAt: 1_700_000_000_123_456_789, entries: [
            .folders(listed: ["a"], stamps: [LoadRecord.FolderStamp(path: "/f", signature: signature), LoadRecord.FolderStamp(path: "/g", signature: nil)]),
            .exists(path: "a/app.json", true), .exists(path: "a/b", false),
            .file(path: "a/app.json", signature: signature, digest: FixtureDigest.of(Array("{}".utf8))),
            .file(path: "a/c", signature: nil, digest: [UInt8](repeating: 7, count: 16)), .unreadable(path: "a/d"),
        ], apps: [AppLoader.DeferredAppDescription(folder: "a", name: "a", mount: "/a", kind: "static")])
        #expect(LoadRecord(decoding: record.encoded) == record)
        // A question count far past what the bytes hold, and a path length past the limit, each
        // with a valid digest of the record's own.
        func sealed(_ body: [UInt8]) -> [UInt8] { body + FixtureDigest.of(body) }
        let head = LoadRecord.magic + [3, 0, 0, 0] + Array("key".utf8) + [UInt8](repeating: 0, count: 8)
        #expect(LoadRecord(decoding: sealed(head + [0xFF, 0xFF, 0xFF, 0x7F])) == nil)
        #expect(LoadRecord(decoding: sealed(head + [1, 0, 0, 0] + Array("R".utf8) + [0xFF, 0xFF, 0xFF, 0xFF])) == nil)
        #expect(LoadRecord(decoding: sealed(head + [0, 0, 0, 0, 0, 0, 0, 0])) == LoadRecord(key: "key", madeAt: 0, entries: [], apps: []))
        #expect(LoadRecord(decoding: record.encoded.dropLast(1) + [UInt8](repeating: 0, count: 2)) == nil)
    }

    /// Files older than the record by more than the racy margin, unchanged: a hit by `stat`
    /// alone, no file read, and the record left as it was.
    @Test func anUnchangedTreeHitsByStatAlone() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load(at: 10)
        let written = try scene.recordBytes()
        let hit = try scene.load(at: 20)
        #expect(hit.note.contains(" read to be sure"))
        #expect(hit.note.contains(", 0 read to be sure, "))
        #expect(!hit.note.contains("refreshed"))
        #expect(try scene.recordBytes() == written)
    }

    /// `touch`: other times, the same bytes. A hit, after reading that one file; the record is
    /// rewritten with its new signature, so the next start reads nothing.
    @Test func aTouchedButIdenticalFileHitsAndRefreshesTheRecord() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load(at: 10)
        let manifest = scene.fixtures.appendingPathComponent("example/app.json")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: manifest.path)
        let written = try scene.recordBytes()
        let touched = try scene.load(at: 20)
        #expect(touched.note.hasPrefix("hit ("))
        #expect(touched.note.contains(", 1 read to be sure, "))
        #expect(touched.note.hasSuffix("; record refreshed"))
        #expect(try scene.recordBytes() != written)
        let next = try scene.load(at: 30)
        #expect(next.note.contains(", 0 read to be sure, "))
        #expect(!next.note.contains("refreshed"))
    }

    /// An edit of the same size with its modification time set back (`utimensat`): the change
    /// time still moves, so the file is read, and its bytes differ: a miss.
    @Test func anEditWithItsModificationTimeSetBackIsAMiss() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load(at: 10)
        let manifest = scene.fixtures.appendingPathComponent("example/app.json")
        let before = try #require(FileStatus(path: manifest.path))
        var bytes = [UInt8](try Data(contentsOf: manifest))
        let space = try #require(bytes.firstIndex(of: UInt8(ascii: " ")))
        bytes[space] = UInt8(ascii: "\t")
        try Data(bytes).write(to: manifest)
        let date = Date(timeIntervalSince1970: Double(before.modifiedSeconds) + Double(before.modifiedNanoseconds) / 1e9)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: manifest.path)
        let after = try #require(FileStatus(path: manifest.path))
        #expect((after.size, after.inode, after.modifiedSeconds) == (before.size, before.inode, before.modifiedSeconds))
        #expect(try scene.load(at: 20).note.hasPrefix("miss (the fixtures changed: \(scene.fixtures.relativePath)/example/app.json changed)"))
    }

    /// A record made within the racy margin of its files' times trusts none of them: each is read
    /// at every start until a check made long enough after rewrites it.
    @Test func racyFilesAreReadUntilTheRecordIsOlder() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let first = try scene.load(at: 0)
        #expect(first.note.hasPrefix("miss (no record)"))
        let racy = try scene.load(at: 1)
        #expect(racy.note.contains("(0 files and folders trusted by stat, "))
        #expect(!racy.note.contains("refreshed"))
        let later = try scene.load(at: 10)
        #expect(later.note.contains("(0 files and folders trusted by stat, "))
        #expect(later.note.hasSuffix("; record refreshed"))
        #expect(try scene.load(at: 11).note.contains(", 0 read to be sure, "))
    }

    /// An app folder added or removed is a miss; a stray file beside the app folders changes the
    /// folder's times but not its list of apps: a hit, the record refreshed.
    @Test func anAppFolderAddedOrRemovedIsAMissAndAStrayFileIsNot() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load(at: 10)
        try scene.write("notes", to: "notes.txt")
        let stray = try scene.load(at: 20)
        #expect(stray.note.hasPrefix("hit ("))
        #expect(stray.note.contains(", 1 read to be sure, "))
        #expect(stray.note.hasSuffix("; record refreshed"))
        try FileManager.default.removeItem(at: scene.fixtures.appendingPathComponent("example"))
        let removed = try scene.load(at: 30)
        #expect(removed.note.hasPrefix("miss (the fixtures changed: an app folder was added or removed)"))
        #expect(removed.apps.map(\.name) == ["test"])
        try FileManager.default.createDirectory(at: scene.fixtures.appendingPathComponent("more"), withIntermediateDirectories: true)
        try scene.write(#"{"kind": "static", "routes": []}"#, to: "more/app.json")
        #expect(try scene.load(at: 40).note.hasPrefix("miss (the fixtures changed: an app folder was added or removed)"))
    }

    /// A file edited after a hit's check and before its app's build: not loaded; the app answers
    /// its kind's 500 and the failure names the file and what to do.
    @Test func aFileEditedBeforeTheDeferredBuildIsRefused() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load(at: 10)
        let failures = LockedValue<[String]>([])
        let hit = try scene.load(at: 20) { app, errors in failures.value.append("\(app): \(errors.diagnostics.map(\.description))") }
        #expect(hit.note.hasPrefix("hit ("))
        let metadata = scene.fixtures.appendingPathComponent("test/metadata.json")
        try (try String(contentsOf: metadata, encoding: .utf8) + "\n").write(to: metadata, atomically: false, encoding: .utf8)
        let test = hit.apps[1].servedApp
        let response = test.respond(to: Self.requests[0])
        #expect(response.status == 500)
        let file = scene.fixtures.relativePath + "/test/metadata.json"
        let status = try JSONParser().parse(response.body).root["responseStatus"]
        #expect(status?["errorCode"]?.stringValue == "Exception")
        let message = try #require(status?["message"]?.stringValue)
        #expect(message.hasPrefix("the app 'test' could not be built: "))
        #expect(message.contains(file) && message.contains(CheckedFixtureSource.changedReason))
        #expect(failures.value.count == 1)
        #expect(failures.value.first?.hasPrefix("test: ") == true)
        #expect(failures.value.first?.contains(file) == true && failures.value.first?.contains(CheckedFixtureSource.changedReason) == true)
        // The static app's files are untouched: it builds and answers.
        #expect(hit.apps[0].servedApp.respond(to: HTTPRequest(method: .get, target: "/widgets")).status == 200)
    }

    /// A fixture broken after a good version was recorded: the full checks, the same mistakes
    /// an uncached load reports (what makes `serve` exit 2).
    @Test func aBrokenFixtureAfterAHitReportsTheSameMistakes() throws {
        let scene = try Scene()
        defer { scene.remove() }
        _ = try scene.load()
        #expect(try scene.load().note.hasPrefix("hit ("))
        let metadata = scene.fixtures.appendingPathComponent("test/app.json")
        var text = try String(contentsOf: metadata, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"kind\"", with: "\"kinds\"")
        try text.write(to: metadata, atomically: true, encoding: .utf8)
        let uncached = try #require(throws: FixtureErrors.self) { try scene.fullLoad() }
        let cached = try #require(throws: FixtureErrors.self) { try scene.load() }
        #expect(!cached.diagnostics.isEmpty)
        #expect(cached.diagnostics == uncached.diagnostics)
        // Put back, the bytes are those recorded again; then a removed file the load reads: the same.
        try text.replacingOccurrences(of: "\"kinds\"", with: "\"kind\"").write(to: metadata, atomically: true, encoding: .utf8)
        #expect(try scene.load().note.hasPrefix("hit ("))
        let fixture = try #require(try FileManager.default.contentsOfDirectory(atPath: scene.fixtures.appendingPathComponent("example").path).first { $0 != "app.json" })
        try FileManager.default.removeItem(at: scene.fixtures.appendingPathComponent("example/" + fixture))
        let removed = try #require(throws: FixtureErrors.self) { try scene.load() }
        #expect(removed.diagnostics == (try #require(throws: FixtureErrors.self) { try scene.fullLoad() }).diagnostics)
        #expect(removed.description.contains("no file '\(fixture)'"))
    }

    @Test func theDefaultFolderFollowsTheEnvironment() {
        #expect(LoadCache.defaultFolder(environment: ["MOCKSTACK_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"])?.path == "/c")
        #expect(LoadCache.defaultFolder(environment: ["MOCKSTACK_CACHE_DIR": "off", "HOME": "/h"]) == nil)
        #expect(LoadCache.defaultFolder(environment: ["MOCKSTACK_CACHE_DIR": "", "XDG_CACHE_HOME": "/x", "HOME": "/h"])?.path == "/x/mockstack")
        #expect(LoadCache.defaultFolder(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"])?.path == "/h/.cache/mockstack")
        #expect(LoadCache.defaultFolder(environment: [:]) == nil)
    }

    @Test func anUnwritableCacheFolderOnlyCostsTheRecord() throws {
        let scene = try Scene()
        defer { scene.remove() }
        // A file where the folder should be: nothing can be written under it.
        try Data("file".utf8).write(to: scene.cache)
        let outcome = try scene.load()
        #expect(outcome.note.hasPrefix("miss (no record); no record written to \(scene.cache.path)"))
        #expect(outcome.apps.map(\.name) == ["example", "test"])
    }

    @Test func oldRecordsArePruned() throws {
        let scene = try Scene()
        defer { scene.remove() }
        try FileManager.default.createDirectory(at: scene.cache, withIntermediateDirectories: true)
        for index in 0..<LoadCache.keptRecords {
            let old = scene.cache.appendingPathComponent("old\(index).record")
            try Data("old".utf8).write(to: old)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -1000 + Double(index))], ofItemAtPath: old.path)
        }
        _ = try scene.load()
        let kept = scene.records()
        #expect(kept.count == LoadCache.keptRecords)
        #expect(!kept.contains("old0.record"))
        #expect(kept.contains("old1.record"))
    }

    /// A server on a hit: the ServiceStack app answers, lists its routes, gives sessions and resets.
    @Test func aServerOnAHitServesItsDeferredAppsWhole() throws {
        let scene = try Scene()
        defer { scene.remove() }
        var configuration = MockStackConfiguration(fixtures: [scene.fixtures])
        configuration.loadCacheFolder = scene.cache
        configuration.buildsDeferredAppsInBackground = false
        func exchange(_ port: Int, _ request: String) throws -> RawResponse { try rawExchange(port: port, request) }
        var answers: [[String]] = []
        for _ in 0..<2 {
            let server = try MockStackServer(configuration: configuration)
            let port = try server.start().port
            defer { server.shutdown() }
            // The first start is a miss that builds every app before the ready line; the second a hit.
            #expect(server.registry.mounted.contains { !$0.isBuilt } == !answers.isEmpty)
            var seen: [String] = []
            for request in ["GET /test/api/Hello?name=World HTTP/1.1\r\nHost: t\r\n\r\n",
                            "GET /__session/s1/test/api/Hello?name=Session HTTP/1.1\r\nHost: t\r\n\r\n",
                            "GET /__mockstack/apps HTTP/1.1\r\nHost: t\r\n\r\n",
                            "POST /__mockstack/reset HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n",
                            "GET /test/api/Hello?name=Again HTTP/1.1\r\nHost: t\r\n\r\n"] {
                let response = try exchange(port, request)
                seen.append("\(response.status) \(response.text)")
            }
            answers.append(seen)
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0][0] == #"200 {"result":"Hello, World!"}"#)
    }
}

extension MountedApp {
    var isBuilt: Bool {
        if case .built = self { true } else { false }
    }

    /// The app, built now when it is not yet, as the registry builds it at its first request.
    var servedApp: any MockApp { AppRegistry(mounted: [self]).app(for: self) }
}
