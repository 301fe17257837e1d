import Synchronization
import Testing
@testable import MockStackCore

/// A load's exchanges with its source recorded, and an app built again from its description
/// (what a load cache hit's apps are built with after the ready line).
@Suite struct AppLoaderBuildTests {
    /// A static kind counting the builds it makes.
    struct CountingKind: AppKind {
        let builds = Builds()
        var name: String { "counted" }
        var manifestKeys: Set<String> { StaticAppKind().manifestKeys }

        func makeApp(name: String, mount: String, manifest: ManifestReader) -> (any MockApp)? {
            builds.count.add(1, ordering: .relaxed)
            return StaticAppKind().makeApp(name: name, mount: mount, manifest: manifest)
        }
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

    @Test func aLoadDescribesEachAppAndAnUnknownKindBuildsNothing() throws {
        let loader = AppLoader(kinds: [StaticAppKind(), CountingKind()])
        let loaded = try loader.loadDescribed(from: InMemoryFixtureSource(files: Self.files))
        #expect(loaded.map(\.description) == [
            AppLoader.DeferredAppDescription(folder: "demo", name: "demo", mount: "/demo", kind: "counted"),
            AppLoader.DeferredAppDescription(folder: "plain", name: "plain", mount: "/p", kind: "static"),
        ])
        let unknown = AppLoader.DeferredAppDescription(folder: "demo", name: "demo", mount: "/demo", kind: "gone")
        #expect(loader.build(unknown, from: InMemoryFixtureSource(files: Self.files)) == nil)
    }

    @Test func aBuildFromADescriptionAnswersAsTheEagerApp() throws {
        let kind = CountingKind()
        let loader = AppLoader(kinds: [StaticAppKind(), kind])
        let source = InMemoryFixtureSource(files: Self.files)
        let loaded = try loader.loadDescribed(from: source)
        #expect(kind.builds.count.load(ordering: .relaxed) == 1)
        let built = try #require(loader.build(loaded[0].description, from: source)).get()
        #expect((built.name, built.mount, built.kind) == ("demo", "/demo", "static"))
        #expect(kind.builds.count.load(ordering: .relaxed) == 2)
        for target in ["/hello", "/nope", "/hello?x=1"] {
            let request = HTTPRequest(method: .get, target: target)
            let (want, got) = (loaded[0].app.respond(to: request), built.respond(to: request))
            #expect(got.status == want.status)
            #expect(got.body == want.body)
            #expect(got.headers == want.headers)
        }
        #expect(built.routes == loaded[0].app.routes)
    }

    /// A build that finds a mistake (on a cache hit: a file edited after start-up; here a
    /// source missing a file) reports every mistake the full load would.
    @Test func aFailedBuildReportsTheMistakes() throws {
        let loader = AppLoader(kinds: [StaticAppKind(), CountingKind()])
        let described = try loader.loadDescribed(from: InMemoryFixtureSource(files: Self.files))[0].description
        var files = Self.files
        files["demo/hello.json"] = nil
        let result = try #require(loader.build(described, from: InMemoryFixtureSource(files: files)))
        guard case .failure(let errors) = result else {
            Issue.record("the build should fail")
            return
        }
        let expected = "Fixtures/demo/app.json:1:62: /routes/0/fixture: no file 'hello.json' in Fixtures/demo"
        #expect(errors.description == expected)
    }
}
