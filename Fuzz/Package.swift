// swift-tools-version: 6.0
// libFuzzer targets for mockstack's parsers. Built and run by `make fuzz`, never by
// `make test` or a client's build: `swift build --sanitize=fuzzer --sanitize=address` here
// passes `-sanitize=fuzzer,address` to swiftc for these targets and for mockstack's own
// modules, so coverage guides the fuzzer through them. Each executable's main.swift defines
// `LLVMFuzzerTestOneInput`; libFuzzer supplies `main`. Seed corpora: Fuzz/Corpus/<target>/.
import PackageDescription

let fuzzTargets = ["FuzzJSON", "FuzzQueryString", "FuzzMultipart", "FuzzBinding", "FuzzAutoQuery", "FuzzFeathersQuery", "FuzzHTTP1", "FuzzWebSocket"]

let package = Package(
    name: "MockStackFuzz",
    dependencies: [.package(name: "mockstack", path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "MockStack", package: "mockstack")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "MockStack", package: "mockstack")]
                + (name == "FuzzWebSocket" ? [.product(name: "MockStackWebSocket", package: "mockstack")] : []),
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    }
)
