// swift-tools-version:6.0
// Benchmark peer only: a Hummingbird 2 server serving fixed files.
// Not part of the mockstack product; nothing depends on this package.

import PackageDescription

let package = Package(
    name: "hummingbird-peer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "hummingbird-peer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/HummingbirdPeer",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
