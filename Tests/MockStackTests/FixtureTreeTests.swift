import Foundation
@testable import MockStack
@testable import MockStackFixtures
import MockStackControl
import Logging
import MockStackCore
import Testing
import TestSupport

/// `--watch` walks only what the fixture source could read: a symlink out of the
/// fixtures folder is not followed, however much lies behind it.
@Suite final class FixtureTreeTests {
    let base: URL
    let root: URL
    let outside: URL

    init() throws {
        base = try makeTemporaryDirectory()
        root = base.appendingPathComponent("fixtures")
        outside = base.appendingPathComponent("elsewhere")
        try writeFiles([
            "fixtures/shop/app.json": HotReloadTests.manifest,
            "fixtures/shop/hello.json": #"{"greeting": "v1"}"#,
            "fixtures/shop/.hidden/secret.json": "{}",
            "fixtures/people/app.json": #"{"kind": "feathers", "mount": "/people", "services": {"people": {}}}"#,
            "elsewhere/a.json": "{}",
            "elsewhere/deep/b.json": "{}",
        ], under: base)
        let links = FileManager.default
        // Out of the folder: a directory and a file.
        try links.createSymbolicLink(atPath: root.path + "/shop/outside", withDestinationPath: outside.path)
        try links.createSymbolicLink(atPath: root.path + "/shop/escape.json", withDestinationPath: outside.path + "/a.json")
        // Inside it: another app's folder, and a loop back to the app's own folder.
        try links.createSymbolicLink(atPath: root.path + "/shop/neighbour", withDestinationPath: "../people")
        try links.createSymbolicLink(atPath: root.path + "/shop/loop", withDestinationPath: ".")
    }

    deinit { try? FileManager.default.removeItem(at: base) }

    @Test func followsLinksInsideTheFolderOnceAndNoneOutOfIt() {
        let found = FixtureTree(root: root).files(below: root.path + "/shop")
        let shop = root.path + "/shop/"
        #expect(found.files.map(\.path) == [shop + "app.json", shop + "hello.json", shop + "neighbour/app.json"])
        #expect(!found.truncated)
    }

    @Test func anAppFolderThatIsALinkOutOfTheFolderHasNoFiles() throws {
        try FileManager.default.createSymbolicLink(atPath: root.path + "/linked", withDestinationPath: outside.path)
        #expect(FixtureTree(root: root).files(below: root.path + "/linked").files.isEmpty)
    }

    @Test func stopsAtItsFileLimit() {
        // app.json, escape.json (a link out, skipped but looked at), hello.json; then it stops.
        let found = FixtureTree(root: root, fileLimit: 3).files(below: root.path + "/shop")
        #expect(found.files.count == 2)
        #expect(found.truncated)
    }

    @Test func aChangeBehindALinkOutOfTheFolderReloadsNothingAndOneInsideDoes() throws {
        let loader = AppLoader.standard
        let apps = try loader.load(from: DirectoryFixtureSource(root: root))
        let registry = AppRegistry(apps: apps)
        let sessions = SessionStore(limit: 4, journalCapacity: 10, journalBodyLimit: 100, seed: 0, stubs: StubStore(files: nil))
        let watcher = FixtureWatcher(folders: FixtureFolders([root]), apps: nil, loader: loader, registry: registry, sessions: sessions,
                                     logger: .init(label: "test"))
        try writeFiles(["a.json": #"{"changed": "outside"}"#, "deep/c.json": "{}"], under: outside)
        watcher.reloadIfChanged()
        #expect(watcher.lastOutcome == nil)
        try writeFiles(["shop/hello.json": #"{"greeting": "v2, longer"}"#], under: root)
        watcher.reloadIfChanged()
        #expect(watcher.lastOutcome?.reloaded == ["shop"])
    }
}
