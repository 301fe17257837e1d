import Dispatch
import Foundation
import MockStackControl
import MockStackCore
import Synchronization
import Testing

/// The registry's mounts as values: an app not built yet is built by its first use, once, and
/// swapped into the table; reset, sessions, the apps listing, sockets and reloads see it as
/// they see any app.
@Suite struct AppRegistryTests {
    /// An app to build at its first use, counting its builds.
    final class Pending: Sendable {
        let builds = Counter()
        let unbuilt: UnbuiltApp

        init(name: String = "test", mount: String = "/test",
             app: @escaping @Sendable () -> any MockApp = { ControlHarness.apps[0] }) {
            let builds = builds
            unbuilt = UnbuiltApp(name: name, mount: mount, kind: "test") {
                builds.add()
                return app()
            }
        }

        var mounted: MountedApp { .unbuilt(unbuilt) }
    }

    static func isBuilt(_ mounted: MountedApp) -> Bool {
        if case .built = mounted { true } else { false }
    }

    @Test func theFirstRequestBuildsTheAppAndSwapsItIntoTheTable() {
        let pending = Pending()
        let served = Counter()
        let registry = AppRegistry(mounted: [pending.mounted, .built(ControlHarness.apps[1])]) { _ in served.add() }
        // Told of the built app only: the unbuilt one is told when it is built.
        #expect(served.count == 1)
        #expect(registry.mounted.map(\.name) == ["test", "feathers"])
        #expect(registry.mounted.map(\.mount) == ["/test", "/feathers"])
        #expect(registry.mounted.map(\.kind) == ["test", "test"])
        #expect(!Self.isBuilt(registry.mounted[0]))
        #expect(pending.builds.count == 0)

        let first = registry.app(for: registry.mounted[0])
        #expect(first.respond(to: HTTPRequest(method: .get, target: "/api/Hello")).status == 200)
        #expect(Self.isBuilt(registry.mounted[0]))
        #expect(served.count == 2)
        // A caller holding the old table's entry gets the same app, not a second build.
        _ = registry.app(for: pending.mounted)
        _ = registry.app(for: registry.mounted[0])
        #expect(pending.builds.count == 1)
        #expect(served.count == 2)
    }

    @Test func concurrentFirstRequestsBuildOnce() {
        let pending = Pending()
        let harness = ControlHarness(mounted: [pending.mounted])
        let threads = 6
        let barrier = Barrier(parties: threads)
        let statuses = Mutex<[Int]>([])
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                barrier.wait()
                let status = harness.send(.get, "/test/api/Hello").status
                statuses.withLock { $0.append(status) }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: threads))
        #expect(pending.builds.count == 1)
        #expect(Self.isBuilt(harness.registry.mounted[0]))
    }

    @Test func resetBuildsNothingAndTheListingASessionAndBuildAllBuild() throws {
        let test = Pending()
        let other = Pending(name: "feathers", mount: "/feathers") { ControlHarness.apps[1] }
        let harness = ControlHarness(mounted: [test.mounted, other.mounted])
        #expect(harness.json(.post, "/__mockstack/reset") == ["reset": ["test", "feathers"]])
        #expect(harness.json(.post, "/__mockstack/reset?app=feathers") == ["reset": ["feathers"]])
        #expect(harness.send(.post, "/__mockstack/reset?app=nope").status == 404)
        #expect(test.builds.count == 0 && other.builds.count == 0)

        #expect(harness.send(.get, "/__session/s1/test/api/Hello").status == 200)
        #expect(test.builds.count == 1 && other.builds.count == 1)
        #expect(harness.registry.mounted.allSatisfy(Self.isBuilt))
        #expect(harness.registry.buildAll().isEmpty)

        let feathers = Pending(name: "feathers", mount: "/feathers") { ControlHarness.apps[1] }
        let fresh = ControlHarness(mounted: [Pending().mounted, feathers.mounted])
        let listing = fresh.json(.get, "/__mockstack/apps")["apps"]?.arrayValue
        let listed = listing?.compactMap { $0["name"]?.stringValue }
        #expect(listed == ["test", "feathers"])
        #expect(fresh.registry.mounted.allSatisfy(Self.isBuilt))

        let late = Pending(name: "b", mount: "/b")
        let background = AppRegistry(mounted: [Pending().mounted, .built(ControlHarness.apps[1]), late.mounted])
        #expect(background.buildAll() == ["test", "b"])
        #expect(background.buildAll().isEmpty)
    }

    @Test func anExposedPortAndAnUnmountedPathSeeTheUnbuiltMount() {
        let pending = Pending()
        let harness = ControlHarness(mounted: [pending.mounted])
        let missing = harness.send(.get, "/nowhere")
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("mounted: /test"))
        #expect(pending.builds.count == 0)
        let pipeline = AppPipeline(journal: RequestJournal(capacity: 10), stubs: StubStore(files: nil),
                                   faults: RequestFaults(seed: 0))
        let exposed = ExposedAppResponder(appName: "test", registry: harness.registry, pipeline: pipeline)
        #expect(exposed.respond(to: HTTPRequest(method: .get, target: "/api/Hello")).status == 200)
        #expect(pending.builds.count == 1)
    }

    @Test func aReloadKeepsAnUnbuiltAppAndABuildItReplacedIsNotSwappedIn() {
        let kept = Pending()
        let replaced = Pending(name: "feathers", mount: "/feathers") { ControlHarness.apps[1] }
        let registry = AppRegistry(mounted: [kept.mounted, replaced.mounted])
        let fresh = RouteApp(name: "feathers", mount: "/feathers", routes: [])
        registry.install(ControlHarness.apps, replacing: [fresh])
        guard case .unbuilt(let stillUnbuilt) = registry.mounted[0], case .built(let now) = registry.mounted[1] else {
            Issue.record("expected the kept app unbuilt and the fresh one built: \(registry.mounted)")
            return
        }
        #expect(stillUnbuilt === kept.unbuilt)
        #expect(now.routes.isEmpty)
        // A request that read the table before the reload still builds and gets its app…
        #expect(registry.app(for: replaced.mounted).routes.count == 2)
        // …but the table keeps the fresh app.
        #expect(registry.mounted[1].name == "feathers")
        if case .built(let after) = registry.mounted[1] {
            #expect(after.routes.isEmpty)
        } else {
            Issue.record("the fresh app was replaced")
        }
    }

    /// A loop's responder reads the registry through its own snapshot: each change of the table
    /// (a build swapped in, a reload, a dropped app) reaches its next request.
    @Test func aLoopsResponderSeesEveryChangeOfTheTable() {
        let pending = Pending()
        let harness = ControlHarness(mounted: [pending.mounted])
        let loop = harness.root.forLoop()
        let hello = HTTPRequest(method: .get, target: "/test/api/Hello")
        #expect(loop.respond(to: hello).status == 200)
        #expect(pending.builds.count == 1)
        #expect(Self.isBuilt(harness.registry.mounted[0]))
        #expect(loop.respond(to: hello).status == 200)
        #expect(pending.builds.count == 1)

        let fresh = RouteApp(name: "test", mount: "/test", routes: [])
        harness.registry.install([fresh], replacing: [fresh])
        #expect(loop.respond(to: hello).status == 404)
        #expect(fresh.answered.count == 1)

        harness.registry.install([], replacing: [])
        let gone = loop.respond(to: hello)
        #expect(String(decoding: gone.body, as: UTF8.self).contains("No app is mounted at /test/api/Hello"))
        #expect(fresh.answered.count == 1)

        let pipeline = AppPipeline(journal: RequestJournal(capacity: 10), stubs: StubStore(files: nil),
                                   faults: RequestFaults(seed: 0))
        let exposed = ExposedAppResponder(appName: "test", registry: harness.registry, pipeline: pipeline).forLoop()
        #expect(exposed.respond(to: HTTPRequest(method: .get, target: "/api/Hello")).status == 404)
        harness.registry.install([fresh], replacing: [fresh])
        _ = exposed.respond(to: HTTPRequest(method: .get, target: "/api/Hello"))
        #expect(fresh.answered.count == 2)
    }

    @Test func anUnbuiltAppWithSocketsIsListedOnceBuilt() {
        let pending = Pending(name: "live", mount: "/live") { SocketControlTests.SocketApp() }
        let harness = ControlHarness(mounted: [pending.mounted])
        let listed = harness.json(.get, "/__mockstack/sockets")
        #expect(listed["eventDelayMs"] == ["live": 0])
        #expect(listed["sockets"]?.arrayValue?.count == 2)
        #expect(pending.builds.count == 1)
    }
}

/// Holds every party until the last one arrives, then lets them all go at once.
final class Barrier: Sendable {
    private let parties: Int
    private let arrived = Mutex(0)
    private let gate = DispatchSemaphore(value: 0)

    init(parties: Int) { self.parties = parties }

    func wait() {
        let isLast = arrived.withLock { count in
            count += 1
            return count == parties
        }
        if isLast {
            for _ in 1..<parties { gate.signal() }
        } else {
            gate.wait()
        }
    }
}
