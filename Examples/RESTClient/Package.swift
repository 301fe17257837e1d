// swift-tools-version: 6.0
// The third kind of client mockstack serves: a plain REST API wrapper (no ServiceStack or
// Feathers client underneath), in the shape Alamofire- and Siesta-based wrappers take — routes
// as an enum whose cases carry their parameters, one function building each URLRequest,
// Codable responses, a development and a production base URL — here on URLSession alone.
// Its tests run against an app folder `mockstack record` wrote, and against runtime stubs.
import PackageDescription

let package = Package(
    name: "RESTClientExample",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WidgetAPI", targets: ["WidgetAPI"]),
    ],
    dependencies: [
        .package(name: "mockstack", path: "../.."),
    ],
    targets: [
        .target(
            name: "WidgetAPI",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "WidgetAPITests",
            dependencies: [
                "WidgetAPI",
                .product(name: "MockStackTesting", package: "mockstack"),
                // Builds the `mockstack` executable with the tests, so they can spawn it.
                .product(name: "mockstack", package: "mockstack"),
            ],
            // The app folder `mockstack record` wrote from the shipped `example` app: read from
            // the checkout by the tests (fixtures, not sources).
            exclude: ["Recorded"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
