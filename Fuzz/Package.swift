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
        // A range that is tested: the shell writes custom-dump's text itself (DumperTests and
        // StateDiffTests hold the two to each other, through its public API only), which a minor
        // release may change. Widen it after running those tests.
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", "1.7.0"..<"1.8.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
    ],
    targets: [
        .target(name: "KarcSynchronization"),
        .target(name: "KarcReflection", dependencies: ["KarcSynchronization"]),
        .target(
            name: "KarcAsync",
            dependencies: [
                "KarcSynchronization",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]),
        .target(name: "KarcCommand"),
        .target(name: "KarcLanguage", dependencies: ["KarcReflection", "KarcCommand", .product(name: "DequeModule", package: "swift-collections")]),
        .target(
            name: "KarcRendering",
            dependencies: [
                "KarcSynchronization", "KarcReflection", "KarcAsync", "KarcCommand", "KarcLanguage",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]),
        .target(name: "KarcShellCluster", dependencies: ["KarcAsync", "KarcLanguage"]),
        .target(
            name: "KarcTrace",
            dependencies: [
                "KarcShellCluster", "KarcAsync", "KarcLanguage", "KarcRendering", .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .target(
            name: "KarcHistory",
            dependencies: [
                "KarcShellCluster", "KarcAsync", "KarcLanguage", "KarcRendering",
                .product(name: "CustomDump", package: "swift-custom-dump"), .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .target(
            name: "KarcTestExport",
            dependencies: ["KarcCommand", "KarcLanguage", "KarcRendering", .product(name: "CustomDump", package: "swift-custom-dump")]),
        .target(
            name: "KarcOutput",
            dependencies: [
                "KarcSynchronization", "KarcShellCluster", "KarcTrace", "KarcAsync", "KarcLanguage", "KarcRendering",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]),
        .target(name: "KarcHost", dependencies: ["KarcOutput", "KarcHistory", "KarcLanguage"]),
        .target(
            name: "KarcFronts", dependencies: ["KarcSynchronization", "KarcAsync", "KarcOutput", "KarcRendering"]),
        .target(
            name: "KarcSession",
            dependencies: [
                "KarcSynchronization", "KarcShellCluster", "KarcTrace", "KarcTestExport", "KarcHistory", "KarcOutput", "KarcHost", "KarcFronts",
                "KarcAsync", "KarcCommand", "KarcLanguage", "KarcRendering",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .target(name: "KarcScriptTools", dependencies: ["KarcSession", "KarcLanguage"]),
        // The attach protocol's messages without its gRPC service, and of
        // the endpoint only what checks a shell's Hello: no NIO, no gRPC.
        .target(
            name: "KarcAttachProtocol",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Generated/karc/attach/v1/attach.grpc.swift"]),
        .target(name: "KarcEndpoint", dependencies: ["KarcAttachProtocol", "KarcLanguage", "KarcSession"], sources: ["AttachedOptions.swift"]),
        // Of the inspector only how it reads a page's questions: no NIO.
        .target(
            name: "KarcInspector", dependencies: ["KarcFronts"], exclude: ["Page", "Generated", "KarcInspector.docc"],
            sources: ["InspectorAsk.swift"]),
        .executableTarget(
            name: "karc-fuzz",
            dependencies: [
                "KarcLanguage", "KarcRendering", "KarcSession", "KarcScriptTools", "KarcAttachProtocol", "KarcEndpoint", "KarcInspector",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
