import Foundation
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// What a client's test setup gets when it is wrong: a message that says what to add
/// to Package.swift, or which other way there is to get a server; and apps loaded on request.
/// One test at a time: several block their thread while a server starts.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct MockStackSetupTests {
    @Test func withoutABinaryTheErrorNamesTheLineToAddToPackageSwift() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let testBinary = folder.appendingPathComponent("ClientPackageTests.xctest")
        do {
            _ = try MockStackBinary.find(environment: ["PATH": ""], executable: testBinary)
            Issue.record("find should have failed")
        } catch {
            #expect(error.message == """
                cannot find the mockstack executable to spawn (not in the test build's folder \(folder.path), MOCKSTACK_BIN or PATH). \
                Add it to your test target's dependencies in Package.swift, so that `swift build --build-tests` builds it beside the tests:
                    .testTarget(name: "…Tests", dependencies: [
                        .product(name: "MockStackTesting", package: "mockstack"),
                        .product(name: "mockstack", package: "mockstack"),   // ← this line
                    ])
                Or set MOCKSTACK_BIN to a mockstack binary, put one on PATH (`make install` in a mockstack checkout), \
                or set MOCKSTACK_URL to a running server (a container) to attach to it instead.
                """)
        }
    }

    @Test func theBinaryIsFoundBesideTheTestsThenOnPath() throws {
        let build = try makeTemporaryDirectory()
        let bin = try makeTemporaryDirectory()
        defer { for folder in [build, bin] { try? FileManager.default.removeItem(at: folder) } }
        try writeFiles(["mockstack": "#!/bin/sh\n"], under: bin)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("mockstack").path)
        let testBinary = build.appendingPathComponent("ClientPackageTests.xctest")
        #expect(try MockStackBinary.find(environment: ["PATH": "/nonexistent:" + bin.path], executable: testBinary).path == bin.appendingPathComponent("mockstack").path)

        try writeFiles(["mockstack": "#!/bin/sh\n"], under: build)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: build.appendingPathComponent("mockstack").path)
        #expect(try MockStackBinary.find(environment: ["PATH": bin.path], executable: testBinary).path == build.appendingPathComponent("mockstack").path)
    }

    @Test func aWrongMockstackBinIsNamed() {
        do {
            _ = try MockStackBinary.find(environment: ["MOCKSTACK_BIN": "/nonexistent/mockstack", "PATH": "/usr/bin"])
            Issue.record("find should have failed")
        } catch {
            #expect(error.message == "MOCKSTACK_BIN is /nonexistent/mockstack, which is not an executable file: point it at a mockstack binary, or unset it to use the one your test build makes")
        }
    }

    @Test func anOlderBinaryIsToldApartFromABrokenOne() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // What an older mockstack's argument parser says about the lifeline flag.
        let script = "#!/bin/sh\necho \"Error: Unknown option '--stop-on-stdin-eof'\" >&2\nexit 64\n"
        try writeFiles(["mockstack": script], under: folder)
        let old = folder.appendingPathComponent("mockstack")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: old.path)
        do {
            _ = try MockStackProcess.launch(binary: old)
            Issue.record("launch should have failed")
        } catch let error as MockStackLaunchError {
            #expect(error.message.hasPrefix("\(old.path) is older than this MockStackTesting (it has no --stop-on-stdin-eof): rebuild it from the same mockstack checkout or version, or point MOCKSTACK_BIN at one that is\n"))
        }
    }

    @Test func aSpawnedServerLoadsOnlyTheAppsNamed() throws {
        let mock = try MockStackProcess.launch(apps: ["example"])
        defer { mock.stop() }
        #expect(mock.ready.apps.map(\.name) == ["example"])
        let notLoaded = try #require(#expect(throws: UnknownAppError.self) { try mock.url(for: "test") })
        #expect(notLoaded.notLoaded == ["ai", "feathers", "feathers-v4", "techstacks", "test"])
        #expect(notLoaded.description == """
            mockstack was started without the app 'test', which its fixtures hold: add "test" to the apps: it is \
            started with (or to --apps / MOCKSTACK_APPS); it serves: example
            """)
        let typo = try #require(#expect(throws: UnknownAppError.self) { try mock.session().url(for: "exampel") })
        #expect(typo.description == """
            mockstack has no app named 'exampel' (did you mean 'example'?); it serves: example; its fixtures also hold \
            ai, feathers, feathers-v4, techstacks, test, which it was started without
            """)
        let unknown = try #require(#expect(throws: UnknownAppError.self) { try mock.url(for: "shop") })
        #expect(unknown.description.hasPrefix("mockstack has no app named 'shop'; it serves: example; its fixtures"))
    }

    @Test func anInProcessServerLoadsOnlyTheAppsNamed() throws {
        let mock = try startMockStack(.inProcess, apps: ["feathers", "example"])
        defer { mock.stop() }
        #expect(mock.ready.apps.map(\.name) == ["example", "feathers"])
    }

    @Test func attachingToAServerWithoutAnAppSaysWhichIsMissing() throws {
        let running = try startMockStack(.inProcess, apps: ["example"])
        defer { running.stop() }
        let url = running.baseURL
        do {
            _ = try startMockStack(.attached(url), apps: ["example", "feathers"])
            Issue.record("attach should have failed")
        } catch let error as MockStackLaunchError {
            #expect(error.message == "mockstack at \(url) does not serve feathers (it serves example): start it with those apps (--apps, MOCKSTACK_APPS)")
        }
        let attached = try startMockStack(.attached(url), apps: ["example"])
        #expect(attached.ready.apps.map(\.name) == ["example"])
        // The control plane's app list names what the server was started without, as its ready line does.
        #expect(attached.ready.notLoaded == ["ai", "feathers", "feathers-v4", "techstacks", "test"])
        let error = try #require(#expect(throws: UnknownAppError.self) { try attached.url(for: "feathers") })
        #expect(error.description.hasPrefix("mockstack was started without the app 'feathers'"))
    }
}
