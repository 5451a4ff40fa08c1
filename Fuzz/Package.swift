// swift-tools-version: 6.1
// The libFuzzer build of karc's fuzz targets (`make fuzz`; docs/reliability.md).
// A package of its own over the same sources (Sources/ links to ../Sources):
// `-sanitize=fuzzer,address` applies to every target of a build, and in the
// main package that includes the `@Command` macro's compiler plugin, which
// cannot be linked with libFuzzer. Here `KarcCommand` is built without its
// plugin: the fuzz targets never expand the macro.
import PackageDescription

let package = Package(
    name: "karc-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
    ],
    targets: [
        .target(
            name: "KarcAsync",
            dependencies: [
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .target(name: "KarcCommand"),
        .target(name: "CKarcTerminal"),
        .target(
            name: "KarcSession",
            dependencies: [
                "KarcAsync", "KarcCommand", "CKarcTerminal",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .executableTarget(name: "karc-fuzz", dependencies: ["KarcSession"]),
    ],
    swiftLanguageModes: [.v6]
)
