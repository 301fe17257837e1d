import Dispatch
import Synchronization
import Testing
@testable import MockStackCore

/// A load's exchanges with its source recorded, and apps built at their first use.
@Suite struct DeferredAppTests {
    /// A static kind counting the builds it makes.
    struct CountingKind: AppKind {
        let builds = Builds()
        var name: String { "counted" }
        var manifestKeys: Set<String> { StaticAppKind().manifestKeys }

        func makeApp(name: String, mount: String, manifest: ManifestReader) -> (any MockApp)? {
            builds.count.add(1, ordering: .relaxed)
            return StaticAppKind().makeApp(name: name, mount: mount, manifest: manifest)
        }

        func unavailable(_ message: String) -> HTTPResponse { HTTPResponse(status: 503, body: Array(message.utf8)) }
    }

    final class Builds: Sendable {
        let count = Atomic(0)
    }

    static let files = [
        "demo/app.json": #"{"kind": "counted", "routes": [{"path": "/hello", "fixture": "hello.json"}]}"#,
        "demo/hello.json": #"{"greeting": "hi"}"#,
        "plain/app.json": #"{"kind": "static", "mount": "/p", "routes": [{"path": "/x", "fixture": "x.json"}]}"#,
        "plain/x.json": "[1]",
    ]

    @Test func aRecordingSourcePassesAnswersThroughAndWritesThemDownInOrder() throws {
        let recording = RecordingFixtureSource(InMemoryFixtureSource(files: Self.files))
        let apps = try AppLoader(kinds: [StaticAppKind(), CountingKind()]).load(from: recording)
        #expect(apps.map(\.name) == ["demo", "plain"])
        let exchanges = recording.finish()
        #expect(exchanges.map(\.question) == [
            .appFolders, .fileExists("demo/app.json"), .fileExists("plain/app.json"), .read("demo/app.json"),
            .fileExists("demo/hello.json"), .read("demo/hello.json"), .read("plain/app.json"), .fileExists("plain/x.json"), .read("plain/x.json"),
        ])
        #expect(exchanges[0].answer == .folders(["demo", "plain"]))
        #expect(exchanges[5].answer == .bytes(Array(Self.files["demo/hello.json"]!.utf8)))
        // After `finish()`, nothing more is written down.
        _ = try recording.read("demo/hello.json")
        #expect(recording.finish().isEmpty)
    }

    /// The apps a load made, each deferred as a load cache hit makes them.
    static func deferred(_ loader: AppLoader, from source: any FixtureSource,
                         onFailure: @escaping @Sendable (String, FixtureErrors) -> Void = { _, _ in }) throws -> [any MockApp] {
        // Described by a loader of its own, so `loader`'s kinds count only the deferred builds.
        try AppLoader(kinds: [StaticAppKind(), CountingKind()]).loadDescribed(from: InMemoryFixtureSource(files: files)).compactMap { loaded in
            loader.deferredApp(loaded.description, source: source) { onFailure(loaded.description.name, $0) }?.served
        }
    }

    @Test func aLoadDescribesEachAppAndAnUnknownKindIsNoDeferredApp() throws {
        let loader = AppLoader(kinds: [StaticAppKind(), CountingKind()])
        let loaded = try loader.loadDescribed(from: InMemoryFixtureSource(files: Self.files))
        #expect(loaded.map(\.description) == [AppLoader.DeferredAppDescription(folder: "demo", name: "demo", mount: "/demo", kind: "counted"),
                                              AppLoader.DeferredAppDescription(folder: "plain", name: "plain", mount: "/p", kind: "static")])
        let unknown = AppLoader.DeferredAppDescription(folder: "demo", name: "demo", mount: "/demo", kind: "gone")
        #expect(loader.deferredApp(unknown, source: InMemoryFixtureSource(files: Self.files)) { _ in } == nil)
    }

    @Test func aDeferredKindIsBuiltAtItsFirstUseAndAnswersAsTheEagerApp() throws {
        let kind = CountingKind()
        let loader = AppLoader(kinds: [StaticAppKind(), kind])
        let source = InMemoryFixtureSource(files: Self.files)
        let eager = try loader.load(from: source)
        #expect(kind.builds.count.load(ordering: .relaxed) == 1)
        let apps = try Self.deferred(loader, from: source)
        let deferred = try #require(apps[0] as? DeferredApp)
        #expect(apps[1] is DeferredApp)
        #expect((deferred.name, deferred.mount, deferred.kind) == ("demo", "/demo", "counted"))
        #expect(!deferred.isBuilt)
        #expect(kind.builds.count.load(ordering: .relaxed) == 1)
        for target in ["/hello", "/nope", "/hello?x=1"] {
            let request = HTTPRequest(method: .get, target: target)
            let (want, got) = (eager[0].respond(to: request), deferred.respond(to: request))
            #expect(got.status == want.status)
            #expect(got.body == want.body)
            #expect(got.headers == want.headers)
        }
        #expect(deferred.isBuilt)
        #expect(kind.builds.count.load(ordering: .relaxed) == 2)
        #expect(deferred.routes == eager[0].routes)
    }

    @Test func concurrentFirstRequestsBuildOnce() throws {
        let kind = CountingKind()
        let apps = try Self.deferred(AppLoader(kinds: [StaticAppKind(), kind]), from: InMemoryFixtureSource(files: Self.files))
        let app = try #require(apps[0] as? DeferredApp)
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let status = app.respond(to: HTTPRequest(method: .get, target: "/hello")).status
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 16))
        #expect(kind.builds.count.load(ordering: .relaxed) == 1)
    }

    @Test func resetBeforeTheBuildBuildsNothingAndASessionBuildsIt() throws {
        let kind = CountingKind()
        let apps = try Self.deferred(AppLoader(kinds: [StaticAppKind(), kind]), from: InMemoryFixtureSource(files: Self.files))
        let app = try #require(apps[0] as? DeferredApp)
        app.reset()
        #expect(!app.isBuilt)
        let session = app.makeSession()
        #expect(app.isBuilt)
        #expect(!(session is DeferredApp))
        #expect(session.respond(to: HTTPRequest(method: .get, target: "/hello")).text == #"{"greeting":"hi"}"#)
        app.reset()
        #expect(kind.builds.count.load(ordering: .relaxed) == 1)
    }

    /// A deferred build that finds a mistake (on a cache hit: a file edited after start-up; here
    /// a source missing a file) answers the kind's 500 and reports the mistakes once.
    @Test func aFailedBuildAnswersTheKindsErrorAndReportsOnce() throws {
        // The fixture file is gone from the source the build reads.
        var files = Self.files
        files["demo/hello.json"] = nil
        let reported = Mutex<[String]>([])
        let apps = try Self.deferred(AppLoader(kinds: [StaticAppKind(), CountingKind()]), from: InMemoryFixtureSource(files: files)) { app, errors in
            reported.withLock { $0.append(app + ": " + errors.description) }
        }
        let first = apps[0].respond(to: HTTPRequest(method: .get, target: "/hello"))
        let second = apps[0].respond(to: HTTPRequest(method: .get, target: "/hello"))
        #expect(first.status == 503)
        #expect(first.text == "the app 'demo' could not be built: Fixtures/demo/app.json:1:62: /routes/0/fixture: no file 'hello.json' in Fixtures/demo")
        #expect(second.text == first.text)
        #expect(reported.withLock { $0 } == ["demo: Fixtures/demo/app.json:1:62: /routes/0/fixture: no file 'hello.json' in Fixtures/demo"])
        #expect(apps[0].routes.isEmpty)
    }
}

extension HTTPResponse {
    fileprivate var text: String { String(decoding: body, as: UTF8.self) }
}
