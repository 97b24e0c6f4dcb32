// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rowmotion",
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        .executable(name: "rowmotion", targets: ["rowmotion"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The diff engine: no dependencies, not even Foundation.
        .target(name: "ListDiff"),
        .executableTarget(
            name: "rowmotion",
            dependencies: ["ListDiff", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "rowmotion-bench",
            dependencies: ["ListDiff"],
            path: "Benchmarks/rowmotion-bench"
        ),
        .testTarget(name: "ListDiffTests", dependencies: ["ListDiff"]),
    ]
)
