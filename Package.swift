// swift-tools-version: 6.2
// mockstack — a mock ServiceStack / FeathersJS test server on libevent.
//
// Each target's comment below says what it holds. docs/architecture.md#layers maps them all
// (what each depends on, which build memory-safe), and `make test` checks that map against this
// file (Scripts/check-layers.py). The rules the map keeps:
//
// - Only MockStackTransport imports libevent (and opens its OpenSSL support), only
//   MockStackUpstream and MockStackTLSClient libcurl and only MockStackDigest libcrypto (CryptoKit
//   on Apple's systems); those four and MockStackSpawn are the only targets that call C, and
//   every unsafe pointer and C callback lives in one of the five. libcurl is opened with dlopen
//   at the first forwarded request (`--proxy-unmatched`, `record`), or by the testing product's
//   first HTTPS request on Linux, never linked.
// - Every other library target builds with strict memory-safety checking (`memorySafeSettings`),
//   so the compiler holds it to that. What they keep is marked where it stands: MockStackJSON's
//   `UTF8Bytes` (a string's bytes as a span, and a span into a string or an array),
//   MockStackFixtures' `stat`, `access` and `realpath` calls, the recorder's `strerror`, and the
//   request and response boxes' fields (`@safe @exclusivity(unchecked)`: changed only while one
//   value holds the box).
// - The testing product (MockStackTesting) builds without the server: a client's tests compile
//   it, MockStackWire, MockStackJSON and MockStackSpawn (and MockStackTLSClient on Linux),
//   nothing else.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Every target above the transport: the compiler refuses (as a warning, which `make test` turns
/// into an error) any unsafe pointer or other unchecked construct, so the promise above is checked.
let memorySafeSettings: [SwiftSetting] = strictSettings + [.strictMemorySafety()]

let package = Package(
    name: "mockstack",
    // iOS for MockStackTesting alone, which attaches there (MOCKSTACK_URL): the server and
    // spawning need macOS or Linux.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "mockstack", targets: ["mockstack"]),
        .library(name: "MockStack", targets: ["MockStack"]),
        // What a client library's tests link: spawns or attaches to a server, never builds it.
        .library(name: "MockStackTesting", targets: ["MockStackTesting"]),
        // The server inside the test process (`.inProcess`): builds the whole server.
        .library(name: "MockStackInProcess", targets: ["MockStackInProcess"]),
        .library(name: "MockStackWebSocket", targets: ["MockStackWebSocket"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Test-only: SQLite as the reference the AutoQuery engine is checked against.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent_core",
            providers: [.apt(["libevent-dev"]), .brew(["libevent"])]
        ),
        // libcurl's header only, for the upstream client's types and constants, and the table of
        // its functions dlsym fills: the module map links nothing (MockStackUpstream's
        // LibcurlClient opens libcurl at the first forwarded request).
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // libcurl's easy calls, declared by hand (no curl.h, nothing linked): MockStackTLSClient's.
        .systemLibrary(name: "CLibcurlEasy"),
        // OpenSSL's libcrypto, where there is no CryptoKit: MockStackDigest's three digests from
        // the system, not a crypto library compiled into every client build (Benchmarks/LOG.md).
        .systemLibrary(
            name: "CLibcrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The server's allocator on Linux: libevent allocates many times per request, and
        // mimalloc does that far more cheaply than glibc (Benchmarks/LOG.md).
        .systemLibrary(
            name: "CMimalloc",
            providers: [.apt(["libmimalloc-dev"])]
        ),
        // Ordered JSON: values, the parser with source positions, pointers, the encoder. A leaf, so
        // the testing product can speak the control plane's JSON without building the server.
        .target(
            name: "MockStackJSON",
            swiftSettings: memorySafeSettings
        ),
        // What the server and its test clients exchange: the ready line, fault names, the admin
        // token's rules, stub definitions and request patterns, each JSON key spelled once.
        // Depends on MockStackJSON and Foundation alone.
        .target(
            name: "MockStackWire",
            dependencies: ["MockStackJSON"],
            swiftSettings: memorySafeSettings
        ),
        .target(
            name: "MockStackCore",
            dependencies: ["MockStackJSON", "MockStackWire"],
            swiftSettings: memorySafeSettings
        ),
        // The control plane under `/__mockstack/`: journal, stubs, sessions, faults, the
        // pipeline every app request goes through and the control page. Plain values over
        // Core's requests and answers; the façade wires it to the transport and the apps.
        .target(
            name: "MockStackControl",
            dependencies: ["MockStackCore", "MockStackWire"],
            swiftSettings: memorySafeSettings
        ),
        // SHA-1, SHA-256 and HMAC-SHA256 from the platform: CryptoKit on Apple's systems,
        // libcrypto elsewhere. Calls C, so it is held to the transport's rules, not memory safety.
        .target(
            name: "MockStackDigest",
            dependencies: [.target(name: "CLibcrypto", condition: .when(platforms: [.linux]))],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MockStackAuth",
            dependencies: ["MockStackCore", "MockStackDigest"],
            swiftSettings: memorySafeSettings
        ),
        .target(
            name: "MockStackServiceStack",
            dependencies: ["MockStackCore", "MockStackAuth"],
            swiftSettings: memorySafeSettings
        ),
        .target(
            name: "MockStackFeathers",
            dependencies: ["MockStackCore", "MockStackAuth", "MockStackSocketIO", "MockStackWebSocket"],
            swiftSettings: memorySafeSettings
        ),
        // RFC 6455 on an upgraded connection: handshake, frames, the closing handshake. Pure
        // values and MockStackDigest's SHA-1; the transport runs it through ``ByteStreamHandler``.
        .target(
            name: "MockStackWebSocket",
            dependencies: ["MockStackCore", "MockStackDigest"],
            swiftSettings: memorySafeSettings
        ),
        // Engine.IO (revisions 3 and 4) and Socket.IO (4 and 5) as values: packets, polling
        // payloads, the handshake and the protocol's refusals, checked without sockets.
        .target(
            name: "MockStackSocketIO",
            dependencies: ["MockStackJSON"],
            swiftSettings: memorySafeSettings
        ),
        .target(
            name: "MockStackTransport",
            dependencies: [
                "CLibevent",
                "MockStackCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The upstream HTTP client (`LibcurlClient`): libcurl opened with dlopen at the first
        // forwarded request, run on a thread of its own. Not the server's transport: it needs no
        // event loop, and the transport needs no libcurl.
        .target(
            name: "MockStackUpstream",
            dependencies: [
                "CCurl",
                "MockStackCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The forwarding rules (which fields cross, `Location` rewriting, the 502s) and the
        // recorder: `serve --proxy-unmatched` and `mockstack record`. The HTTP client itself is
        // MockStackUpstream's; the façade hands the forwarding to the control plane's pipeline as
        // a ``FallThrough``.
        .target(
            name: "MockStackProxy",
            dependencies: ["MockStackCore", "MockStackUpstream"],
            swiftSettings: memorySafeSettings
        ),
        // Fixtures on disk: reading them (never outside their folder), `--watch`, and the load
        // cache, whose hit mounts every app unbuilt in the control plane's registry. Knows no
        // emulation: the façade hands it the app kinds and what a failed build answers.
        .target(
            name: "MockStackFixtures",
            dependencies: [
                "MockStackCore",
                "MockStackControl",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: memorySafeSettings
        ),
        .target(
            name: "MockStack",
            dependencies: [
                "MockStackCore",
                "MockStackWire",
                "MockStackControl",
                "MockStackFixtures",
                "MockStackProxy",
                "MockStackServiceStack",
                "MockStackFeathers",
                "MockStackTransport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: memorySafeSettings
        ),
        // The git commit, stamped into the executable at build time (`mockstack --version`),
        // written by the system's `sh`: no tool of its own to build first.
        .plugin(
            name: "BuildStamp",
            capability: .buildTool()
        ),
        // Child processes over posix_spawn, with a safe API, for MockStackTesting and the tests:
        // Foundation's `Process.run()` crashes now and then in Swift 6.3.1 on Linux
        // (swift-corelibs-foundation #5472). Kept apart from the transport because the testing
        // product builds it, and the transport would build libevent into every client's tests.
        .target(
            name: "MockStackSpawn",
            swiftSettings: strictSettings
        ),
        // The testing product's HTTPS on Linux, where FoundationNetworking asks no delegate about
        // certificates: a URLProtocol making a mock's HTTPS requests with the libcurl
        // FoundationNetworking has loaded, trusting the mock's CA for its port alone. Calls C.
        .target(
            name: "MockStackTLSClient",
            dependencies: ["CLibcurlEasy"],
            swiftSettings: strictSettings
        ),
        // Foundation, XCTest/Testing, the two leaves and the spawner only (and on Linux the TLS
        // client): a client's first build stays short.
        .target(
            name: "MockStackTesting",
            dependencies: [
                "MockStackJSON", "MockStackWire",
                // Only where processes can be started: on iOS the testing product attaches.
                .target(name: "MockStackSpawn", condition: .when(platforms: [.macOS, .linux])),
                .target(name: "MockStackTLSClient", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: memorySafeSettings
        ),
        .target(
            name: "MockStackInProcess",
            dependencies: ["MockStack", "MockStackTesting"],
            swiftSettings: memorySafeSettings
        ),
        .executableTarget(
            name: "mockstack",
            dependencies: [
                "MockStack",
                .target(name: "CMimalloc", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Its folder is not named after the target: `Sources/mockstack` would differ from
            // `Sources/MockStack` only by case, one folder on a case-insensitive disk (macOS).
            path: "Sources/CLI",
            // The order release builds lay out the functions a server runs (Scripts/link-order.sh).
            exclude: ["link-order.txt"],
            swiftSettings: strictSettings,
            plugins: ["BuildStamp"]
        ),
        .testTarget(
            name: "MockStackDigestTests",
            dependencies: ["MockStackDigest"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackJSONTests",
            dependencies: ["MockStackJSON"],
            swiftSettings: strictSettings
        ),
        // The control plane as values: a root responder over test apps, no sockets.
        .testTarget(
            name: "MockStackControlTests",
            dependencies: ["MockStackControl", "MockStackCore", "MockStackWire"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackCoreTests",
            dependencies: ["MockStackCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackServiceStackTests",
            dependencies: ["MockStackServiceStack", "MockStackCore", "MockStackAuth", "MockStackSpawn"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackFeathersTests",
            dependencies: ["MockStackFeathers", "MockStackAuth", "MockStackCore", "MockStackSocketIO"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AutoQueryDifferentialTests",
            dependencies: ["MockStackServiceStack", "MockStackCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackTransportTests",
            dependencies: ["MockStackTransport", "MockStackCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // The upstream client against the transport's own server (TestSupport's ScriptedUpstream).
        .testTarget(
            name: "MockStackUpstreamTests",
            dependencies: ["MockStackUpstream", "MockStackCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackSocketIOTests",
            dependencies: ["MockStackSocketIO", "MockStackJSON"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackWebSocketTests",
            dependencies: ["MockStackWebSocket", "MockStackTransport", "MockStackCore", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // The load cache's values without the emulations: digests, the executable's identity,
        // a failed build after a hit.
        .testTarget(
            name: "MockStackFixturesTests",
            dependencies: ["MockStackFixtures", "MockStackControl", "MockStackCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MockStackTests",
            dependencies: ["MockStack", "MockStackControl", "MockStackAuth", "MockStackCore", "MockStackServiceStack",
                           "MockStackFeathers", "MockStackTesting",
                           "MockStackProxy", "MockStackFixtures",
                           "MockStackInProcess", "MockStackSpawn", "TestSupport",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // The command line as plain values: every command's options read, refused and described
        // in help. Links the executable's own module (`@testable import mockstack`).
        .testTarget(
            name: "MockStackCommandTests",
            dependencies: ["mockstack", "MockStackProxy", "MockStackTesting", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["MockStackCore", "MockStackSpawn", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // A test process in miniature for CLITests: spawns servers through MockStackTesting,
        // prints their pids and waits to be killed (their servers must not outlive it).
        .executableTarget(
            name: "spawn-probe",
            dependencies: ["MockStackTesting"],
            path: "Tests/SpawnProbe",
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["MockStackCore", "MockStackSpawn", "MockStackTransport"],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
    ]
)
