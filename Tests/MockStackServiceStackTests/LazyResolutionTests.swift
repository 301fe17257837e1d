import Foundation
import MockStackCore
@testable import MockStackServiceStack
import Synchronization
import Testing

/// Operations and types are resolved on first use (start-up pays only for what the manifest
/// configures and the check reads), from whichever event loop asks first.
@Suite struct LazyResolutionTests {
    /// Many first uses at once: every caller gets the one value kept.
    @Test func concurrentFirstUsesShareOneValue() {
        final class Box: Sendable {}
        let resolutions = Atomic(0)
        let value = ResolvedOnFirstUse<Box> {
            resolutions.add(1, ordering: .relaxed)
            return Box()
        }
        let seen = Mutex<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            let box = value.value
            seen.withLock { $0.append(ObjectIdentifier(box)) }
        }
        let identities = seen.withLock { $0 }
        #expect(identities.count == 32)
        #expect(Set(identities).count == 1)
        #expect(resolutions.load(ordering: .relaxed) >= 1)
        // Once kept, it is not worked out again.
        let after = resolutions.load(ordering: .relaxed)
        #expect(value.value === value.value)
        #expect(resolutions.load(ordering: .relaxed) == after)
    }

    /// Operations nobody has called yet (a plain class, a generic answer), called from many
    /// threads at once on a freshly loaded app, answer as one caller alone is answered.
    @Test func unresolvedOperationsAnswerAlikeFromManyThreads() throws {
        let targets = ["/api/GetProject?Account=acme&Project=rocket", "/api/HelloQueryResponse?Names=a,b"]
        let alone = try TestHost.load("test")
        let expected = targets.map { TestHost.call(.get, $0, app: alone) }
        #expect(expected.map(\.status) == [200, 200])
        // The echo is read as the return type, Project, which declares no `Project` property.
        #expect(expected[0].text == #"{"account":"acme"}"#)

        let app = try TestHost.load("test")
        let answers = Mutex<[Int: [(Int, String)]]>([:])
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let target = targets[index % targets.count]
            let response = TestHost.call(.get, target, app: app)
            answers.withLock { $0[index % targets.count, default: []].append((response.status, response.text)) }
        }
        for (position, response) in expected.enumerated() {
            let got = answers.withLock { $0[position] ?? [] }
            #expect(got.count == 8)
            #expect(got.allSatisfy { $0.0 == response.status && $0.1 == response.text }, "\(targets[position])")
        }
    }
}
