import Testing
import MockStackCore

/// Several fixtures folders read as one: `serve --fixtures shipped --fixtures ./mine`.
@Suite struct LayeredFixtureSourceTests {
    static func staticApp(_ route: String, mount: String? = nil) -> String {
        #"{"kind":"static","#
            + (mount.map { #""mount":"\#($0)","# } ?? "")
            + #""routes":[{"path":"\#(route)","fixture":"reply.json"}]}"#
    }

    let shipped = InMemoryFixtureSource(files: [
        "example/app.json": Self.staticApp("/shipped"),
        "example/reply.json": #"{"from":"shipped"}"#,
        "example/extra.json": "{}",
        "other/app.json": Self.staticApp("/other"),
        "other/reply.json": "{}",
    ], displayRoot: "Fixtures")
    let mine = InMemoryFixtureSource(files: [
        "example/app.json": Self.staticApp("/mine"),
        "example/reply.json": #"{"from":"mine"}"#,
        "mine/app.json": Self.staticApp("/x"),
        "mine/reply.json": "{}",
    ], displayRoot: "mine")

    @Test func aLaterFolderReplacesAnAppFolderWholeAndAddsItsOwn() throws {
        let layered = try LayeredFixtureSource([shipped, mine])
        #expect(try layered.appFolders() == ["example", "mine", "other"])
        #expect(try layered.read("example/reply.json") == Array(#"{"from":"mine"}"#.utf8))
        // Nothing of the replaced folder shows through.
        #expect(!layered.fileExists("example/extra.json"))
        #expect(try layered.read("other/reply.json") == Array("{}".utf8))
        let apps = try AppLoader().load(from: layered)
        #expect(apps.map(\.name) == ["example", "mine", "other"])
        #expect(apps.first { $0.name == "example" }?.routes.map(\.path) == ["/mine"])
    }

    @Test func theOrderDecidesWhichFolderWins() throws {
        let apps = try AppLoader().load(from: LayeredFixtureSource([mine, shipped]))
        #expect(apps.first { $0.name == "example" }?.routes.map(\.path) == ["/shipped"])
    }

    @Test func filesOutsideAppFoldersAreLookedForInLaterFoldersFirst() throws {
        let first = InMemoryFixtureSource(files: ["a/app.json": "{}", "reply.json": "1", "only-first.json": "2"], displayRoot: "one")
        let second = InMemoryFixtureSource(files: ["b/app.json": "{}", "reply.json": "3"], displayRoot: "two")
        let layered = try LayeredFixtureSource([first, second])
        #expect(try layered.read("reply.json") == Array("3".utf8))
        #expect(try layered.read("only-first.json") == Array("2".utf8))
        #expect(layered.displayPath("only-first.json") == "one/only-first.json")
        #expect(throws: FixtureReadError.self) { try layered.read("nowhere.json") }
    }

    @Test func diagnosticsNameTheFolderTheFileCameFrom() throws {
        let broken = InMemoryFixtureSource(files: ["mine/app.json": #"{"kind":"static","routes":3}"#], displayRoot: "mine")
        let thrown = #expect(throws: FixtureErrors.self) { try AppLoader().load(from: LayeredFixtureSource([shipped, broken])) }
        #expect(thrown?.diagnostics.map(\.description) == ["mine/mine/app.json:1:27: /routes: expected an array, found number"])
        #expect(try LayeredFixtureSource([shipped, mine]).displayRoot == "Fixtures + mine")
    }

    @Test func twoFoldersClaimingOneMountAreRefusedNamingBoth() throws {
        let clash = InMemoryFixtureSource(files: ["clash/app.json": Self.staticApp("/x", mount: "/other"), "clash/reply.json": "{}"], displayRoot: "mine")
        let thrown = #expect(throws: FixtureErrors.self) { try AppLoader().load(from: LayeredFixtureSource([shipped, clash])) }
        #expect(thrown?.diagnostics.map(\.description) == ["Fixtures/other/app.json:1:1: /mount: mount '/other' is already used by mine/clash/app.json:1:26"])
    }
}
