import MockStackControl
import MockStackCore
@testable import MockStackFixtures
import Synchronization
import Testing

/// A hit's app whose build finds a mistake after all.
@Suite struct UnbuiltAppFailureTests {
    @Test func aFailedBuildAnswersTheKindsErrorAndReportsOnce() throws {
        // The fixture file is gone from the source the build reads.
        let source = InMemoryFixtureSource(files: ["demo/app.json": #"{"kind": "static", "routes": [{"path": "/hello", "fixture": "hello.json"}]}"#])
        let described = AppLoader.DeferredAppDescription(folder: "demo", name: "demo", mount: "/demo", kind: "static")
        let reported = Mutex<[String]>([])
        let unbuilt = LoadCache.unbuilt(described, loader: AppLoader(), source: source,
                                        unavailable: { kind, message in HTTPResponse(status: 503, body: Array("\(kind): \(message)".utf8)) },
                                        onFailure: { errors in reported.withLock { $0.append("demo: " + errors.description) } })
        let registry = AppRegistry(mounted: [unbuilt])
        let first = registry.app(for: unbuilt).respond(to: HTTPRequest(method: .get, target: "/hello"))
        let second = registry.apps[0].respond(to: HTTPRequest(method: .get, target: "/hello"))
        let text = String(decoding: first.body, as: UTF8.self)
        #expect(first.status == 503)
        #expect(text == "static: the app 'demo' could not be built: Fixtures/demo/app.json:1:61: /routes/0/fixture: no file 'hello.json' in Fixtures/demo")
        #expect(second.body == first.body)
        #expect(reported.withLock { $0 } == ["demo: Fixtures/demo/app.json:1:61: /routes/0/fixture: no file 'hello.json' in Fixtures/demo"])
        #expect(registry.apps[0].routes.isEmpty)
    }
}

/// The executable's identity in the cache key: the ELF build ID note when there is one.
@Suite struct ExecutableIdentityTests {
    /// A 64-bit little-endian ELF start: its header, one PT_NOTE program header, and a GNU
    /// build ID note of `id`.
    static func elf(id: [UInt8], noteType: UInt8 = 3) -> [UInt8] {
        func le(_ value: Int, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        var header = [0x7F, 0x45, 0x4C, 0x46, 2, 1] + [UInt8](repeating: 0, count: 26)
        header += le(64, 8) + le(0, 8) + le(0, 4) + le(64, 2) + le(56, 2) + le(1, 2) + le(0, 6)
        let note = le(4, 4) + le(id.count, 4) + le(Int(noteType), 4) + [0x47, 0x4E, 0x55, 0] + id
        let program = le(4, 4) + le(4, 4) + le(120, 8) + le(120, 8) + le(120, 8) + le(note.count, 8) + le(note.count, 8) + le(4, 8)
        return header + program + note
    }

    @Test func theBuildIDNoteIsReadAndAnythingElseIsNone() {
        #expect(ExecutableIdentity.buildID(inELF: Self.elf(id: [0xAB, 0x01, 0xFF])) == "ab01ff")
        #expect(ExecutableIdentity.buildID(inELF: Self.elf(id: [0xAB], noteType: 1)) == nil)
        #expect(ExecutableIdentity.buildID(inELF: Array(Self.elf(id: [0xAB, 0x01]).dropLast(1))) == nil)
        #expect(ExecutableIdentity.buildID(inELF: Array("#!/bin/sh\n".utf8)) == nil)
        #expect(ExecutableIdentity.buildID(inELF: []) == nil)
    }
}

/// The load cache's digest: every byte and every chunk boundary counts.
@Suite struct FixtureDigestTests {
    static func digest(_ chunks: [[UInt8]]) -> [UInt8] {
        var digest = FixtureDigest()
        for chunk in chunks { digest.update(chunk) }
        return digest.finalize()
    }

    @Test func oneChangedBitAnywhereChangesIt() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let original = Self.digest([bytes])
        #expect(original.count == 16)
        #expect(Self.digest([bytes]) == original)
        var seen: Set<[UInt8]> = [original]
        for index in bytes.indices {
            for bit in [0, 7] {
                var changed = bytes
                changed[index] ^= 1 << bit
                seen.insert(Self.digest([changed]))
            }
        }
        #expect(seen.count == 1 + 2 * bytes.count)
    }

    @Test func lengthsAndChunksCount() {
        let bytes = [UInt8](repeating: 0, count: 64)
        let digests = [Self.digest([]), Self.digest([[]]), Self.digest([[0]]), Self.digest([bytes]), Self.digest([bytes + [0]]),
                       Self.digest([Array(bytes[..<32]), Array(bytes[32...])]), Self.digest([Array(bytes[..<31]), Array(bytes[31...])])]
        #expect(Set(digests).count == digests.count)
    }
}
