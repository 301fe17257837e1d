// swift-tools-version: 6.0
// An example of what a client library's own package looks like when its integration tests
// run against mockstack instead of a live host: `MiniServiceClient` stands for the library
// under test, and its test target depends on mockstack's `MockStackTesting` (here by path;
// a real library would name mockstack's git URL and a version).
import PackageDescription

let package = Package(
    name: "ClientLibraryExample",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MiniServiceClient", targets: ["MiniServiceClient"]),
    ],
    dependencies: [
        .package(name: "mockstack", path: "../.."),
    ],
    targets: [
        .target(
            name: "MiniServiceClient",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "MiniServiceClientTests",
            dependencies: [
                "MiniServiceClient",
                .product(name: "MockStackTesting", package: "mockstack"),
                // Builds the `mockstack` executable with the tests, so setUp can spawn it.
                .product(name: "mockstack", package: "mockstack"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
