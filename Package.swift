// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

// Layers only point down: karc → (KarcShellTrellis, KarcAttach, KarcEndpoint); KarcShellTrellis → (KarcShell, KarcSessionTrellis);
// KarcEndpoint → (KarcSessionTrellis, KarcAttachProtocol); KarcShell → KarcSession → KarcRendering → KarcLanguage → KarcCommand; KarcSessionTrellis → Trellis
// → (Karc → KarcAsync, AsyncDispatcher); Compose stands alone (see docs/architecture.md).
let package = Package(
    name: "karc",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "KarcAsync", targets: ["KarcAsync"]),
        .library(name: "Karc", targets: ["Karc"]),
        .library(name: "AsyncDispatcher", targets: ["AsyncDispatcher"]),
        .library(name: "Trellis", targets: ["Trellis"]),
        .library(name: "Compose", targets: ["Compose"]),
        .library(name: "KarcCommand", targets: ["KarcCommand"]),
        .library(name: "KarcSession", targets: ["KarcSession"]),
        .library(name: "KarcShell", targets: ["KarcShell"]),
        .library(name: "KarcSessionTrellis", targets: ["KarcSessionTrellis"]),
        .library(name: "KarcShellTrellis", targets: ["KarcShellTrellis"]),
        .library(name: "KarcEndpoint", targets: ["KarcEndpoint"]),
        .library(name: "TrellisTesting", targets: ["TrellisTesting"]),
        .library(name: "ComposeCombine", targets: ["ComposeCombine"]),
        .library(name: "TrellisCombine", targets: ["TrellisCombine"]),
        .library(name: "TrellisCompose", targets: ["TrellisCompose"]),
        .executable(name: "karc", targets: ["karc"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        // A range that is tested: the shell writes custom-dump's text itself (DumperTests and
        // StateDiffTests hold the two to each other, through its public API only), which a minor
        // release may change. Widen it after running those tests.
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", "1.7.0"..<"1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `@Command` (defaults and doc comments of typed commands) is a macro.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        // `karc attach` / `ClusterEndpoint`: the shell on a cluster in another process.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.0"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.0"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Built already for the transport's TLS: `karc attach` names a refused certificate's subject and issuer.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.34.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.0.0"),
        // Combine bridges (ComposeCombine, TrellisCombine) where Apple's Combine is not there.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // Causal traces: `ServiceContext` carries a send's span through every hand-off, and an app's
        // bootstrapped tracer gets karc's spans (Sources/Trellis/Trellis.docc/Traces.md). ~5 s of a debug build.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
    ],
    targets: [
        // The one lock every module uses (KarcMutex: Synchronization.Mutex, or a pthread mutex under TSan).
        .target(name: "KarcSynchronization"),
        // Every use of the runtime's underscored and `@_silgen_name` API, metadata kinds and
        // layouts, in one module with a test per assumption (KarcReflectionTests).
        .target(name: "KarcReflection", dependencies: ["KarcSynchronization"]),
        .target(
            name: "KarcAsync",
            dependencies: [
                "KarcSynchronization",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "Karc",
            dependencies: [
                "KarcSynchronization",
                "KarcAsync",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                "KarcMacros",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "AsyncDispatcher",
            dependencies: [
                "KarcSynchronization",
                "KarcAsync",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "Trellis",
            dependencies: [
                "KarcSynchronization",
                "Karc",
                "KarcAsync",
                "AsyncDispatcher",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Emitters, validation, status sets and persistence; used by the upper layers.
        .target(
            name: "Compose",
            dependencies: [
                "KarcReflection",
                "KarcSynchronization",
                "KarcAsync",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // The macros: `@Command` (defaults and doc comments of a command type) and
        // `@CheckedSendable` (a model's or domain's Sendable conformance, checked).
        // Their expansions are an ordinary module, which KarcMacroTests tests: a test
        // target that depends on a macro target makes SwiftPM build every test target
        // and everything it imports twice (once for the host), which doubled the build.
        .macro(
            name: "KarcMacros",
            dependencies: [
                "KarcMacroSupport",
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "KarcMacroSupport",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        // Combine bridges, optional products: the core modules keep no Combine dependency.
        // Apple's Combine where it exists, OpenCombine elsewhere.
        .target(
            name: "ComposeCombine",
            dependencies: [
                "Compose",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android, .wasi])),
            ]
        ),
        .target(
            name: "TrellisCombine",
            dependencies: [
                "Trellis",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android, .wasi])),
            ]
        ),
        // A Compose component tree mounted in a cluster as a target: its emitters are commands,
        // its routers' stacks and stores its state (`ComponentTreeService`).
        .target(name: "TrellisCompose", dependencies: ["KarcSynchronization", "Trellis", "Compose", "KarcAsync", "KarcCommand"]),
        // `@Command`: the attribute a command type carries. Stands alone: an app's action types import it without the shell.
        .target(name: "KarcCommand", dependencies: ["KarcMacros"]),
        // libedit, for the interactive prompt (apt: libedit-dev; scripts/setup.sh installs it).
        .systemLibrary(name: "CLibedit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        // Terminal settings and signal handlers for the prompt (async-signal-safe C).
        .target(name: "CKarcTerminal"),
        // The command language: catalogs learned from command types, lines parsed
        // and decoded into typed commands (text in, values out; no cluster, no output).
        .target(
            name: "KarcLanguage",
            dependencies: [
                "KarcReflection",
                "KarcCommand",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The value renderer: any value as readable text, JSON, a diff, a JSON patch,
        // a summary, a path's value or a Swift literal (values in, text out).
        .target(
            name: "KarcRendering",
            dependencies: [
                "KarcReflection",
                "KarcSynchronization",
                "KarcAsync",
                "KarcCommand",
                "KarcLanguage",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]
        ),
        // What a shell drives: the ShellCluster protocols, the records a cluster tells
        // (ShellRecord) and what a cluster can do beyond sending (reset, restore, invariants).
        .target(name: "KarcShellCluster", dependencies: ["KarcAsync", "KarcLanguage"]),
        // A session's traces as far as it saw them (TraceBook), drawn as trees and
        // sequence diagrams, each send named as the shell types it.
        .target(
            name: "KarcTrace",
            dependencies: [
                "KarcShellCluster", "KarcAsync", "KarcCommand", "KarcLanguage", "KarcRendering",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // A session as a Swift Testing test (`:export-test`, `karc export-test`): the steps
        // a session keeps (TestStep) and the test written from them, states as Swift values.
        .target(
            name: "KarcTestExport",
            dependencies: ["KarcCommand", "KarcLanguage", "KarcRendering", .product(name: "CustomDump", package: "swift-custom-dump")]
        ),
        // What a session keeps of its cluster's states: each change's parts (`:blame`),
        // the parts watched (`:watch`), snapshots and undo points, and snapshot files.
        .target(
            name: "KarcHistory",
            dependencies: [
                "KarcShellCluster", "KarcAsync", "KarcLanguage", "KarcRendering",
                .product(name: "CustomDump", package: "swift-custom-dump"), .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // What a session says (OutputEvent) and where it goes: the renderer, which makes
        // each change's diff, the readable and JSON formatters, the sink, and the fronts.
        .target(
            name: "KarcOutput",
            dependencies: [
                "KarcSynchronization", "KarcShellCluster", "KarcTrace", "KarcAsync", "KarcLanguage", "KarcRendering",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]
        ),
        // The machine a session's files and terminal are on (ShellHost): this process's
        // (LocalHost) or, for an attached session, the user's, through the connection.
        .target(name: "KarcHost", dependencies: ["KarcOutput", "KarcHistory", "KarcLanguage"]),
        // What a front has of a session beside its output events (KarcOutput's
        // SessionFront): the inbox it asks through, and how a session starts the
        // browser's front. A front module imports this, not the session.
        .target(name: "KarcFronts", dependencies: ["KarcSynchronization", "KarcAsync", "KarcOutput", "KarcRendering"]),
        // The shell's core, without a terminal: sessions (meta commands, waits, output
        // events and their formatters), scripts, transcripts, test export; re-exports
        // KarcLanguage. What an app links to let a shell attach (no libedit, no
        // ArgumentParser, no signal handlers).
        .target(
            name: "KarcSession",
            dependencies: [
                "KarcSynchronization",
                "KarcShellCluster",
                "KarcTrace",
                "KarcTestExport",
                "KarcHistory",
                "KarcOutput",
                "KarcHost",
                "KarcFronts",
                "KarcAsync",
                "KarcCommand",
                "KarcLanguage",
                "KarcRendering",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The live inspector (`--inspect`): the session's output events as JSON to the
        // browsers that open its page, served on 127.0.0.1 over HTTP and a WebSocket (NIO).
        .target(
            name: "KarcInspector",
            dependencies: [
                "KarcSynchronization", "KarcAsync", "KarcFronts", "KarcOutput", "KarcRendering",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            exclude: ["Page"]
        ),
        // `explore`: generated command sequences against fresh clusters, in worker
        // processes, the first failure shrunk; a tool on the session's package surface.
        .target(
            name: "KarcExplore",
            dependencies: ["KarcSynchronization", "KarcSession", "KarcLanguage", "KarcRendering", "KarcAsync"]
        ),
        // `check`, `export-test` and `export-diagram`: a script against a fresh cluster,
        // its output compared with a transcript's, or written as a test or a diagram.
        .target(
            name: "KarcScriptTools",
            dependencies: ["KarcSession", "KarcLanguage"]
        ),
        // The shell at a terminal: the libedit prompt, the pager, the command line
        // (`Shell.run`, `ShellApp`, `ShellArguments`); re-exports KarcSession.
        .target(
            name: "KarcShell",
            dependencies: [
                "KarcSynchronization",
                "KarcSession",
                "KarcInspector",
                "KarcExplore",
                "KarcScriptTools",
                "KarcRendering",
                "KarcAsync",
                "CLibedit",
                "CKarcTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A cluster under test, asserted exhaustively: `ClusterTestStore` (Swift Testing).
        .target(
            name: "TrellisTesting",
            dependencies: [
                "KarcSynchronization",
                "Trellis",
                "Karc",
                "KarcAsync",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]
        ),
        // A Trellis cluster as a `ShellCluster`: `ClusterShell` (no terminal).
        .target(name: "KarcSessionTrellis", dependencies: ["KarcSession", "KarcLanguage", "KarcAsync", "Trellis"]),
        // The shell in front of a Trellis cluster: `Shell.main(name:cluster:)`; re-exports both.
        .target(
            name: "KarcShellTrellis",
            dependencies: ["KarcShell", "KarcSessionTrellis", "Trellis", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The attach protocol (Protos/karc/attach/v1/attach.proto): generated code,
        // committed (scripts/generate-attach-protocol.sh), and what both ends share.
        .target(
            name: "KarcAttachProtocol",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // `ClusterEndpoint`: what an app runs so `karc attach` can drive its
        // cluster (a swift-service-lifecycle Service); no libedit, no ArgumentParser.
        .target(
            name: "KarcEndpoint",
            dependencies: [
                "KarcSynchronization",
                "KarcAttachProtocol",
                "KarcLanguage",
                "KarcSession",
                "KarcInspector",
                "KarcSessionTrellis",
                "KarcAsync",
                "Trellis",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `karc attach`: the shell, its prompt and scripts, in front of an endpoint.
        .target(
            name: "KarcAttach",
            dependencies: [
                "KarcSynchronization",
                "KarcAttachProtocol",
                "KarcLanguage",
                "KarcShell",
                "KarcAsync",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // Already in the graph (the transport's TLS): a refused certificate named by its subject and issuer.
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The demo cluster `karc` runs: every part of the library at work.
        .target(
            name: "KarcDemo",
            dependencies: [
                "Karc", "Trellis", "AsyncDispatcher", "Compose", "TrellisCompose", "KarcCommand",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]),
        .executableTarget(
            name: "karc",
            dependencies: [
                "KarcDemo",
                "KarcShell",
                "KarcShellTrellis",
                "KarcEndpoint",
                "KarcAttach",
                "KarcAttachProtocol",
                "KarcInspector",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // README's "drive your own cluster" example, built and run by the tests as a user would.
        .executableTarget(name: "shop-example", dependencies: ["KarcShellTrellis", "Trellis", "KarcCommand"], path: "Examples/Shop"),
        // Clusters with bugs only a sequence of commands finds, for the tests of `explore`.
        .executableTarget(
            name: "explore-planted",
            dependencies: [
                "KarcShellTrellis", "Trellis", "KarcCommand", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Fixtures/ExplorePlanted"),
        // Throughput benchmarks: `make bench` builds and runs them in release mode.
        .executableTarget(
            name: "karc-bench",
            dependencies: [
                "Karc", "Trellis", "AsyncDispatcher", "Compose", "KarcEndpoint", "KarcAttachProtocol", "KarcAsync", "KarcRendering",
                "KarcSession", "KarcSessionTrellis", "KarcInspector",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ],
            path: "Benchmarks/Sources/karc-bench"
        ),
        // The fuzz targets (docs/reliability.md): `make fuzz` builds them for
        // libFuzzer; built as usual, they replay the committed corpus (Fuzz/corpus).
        .executableTarget(
            name: "karc-fuzz",
            dependencies: [
                "KarcLanguage", "KarcRendering", "KarcSession", "KarcScriptTools", "KarcAttachProtocol", "KarcEndpoint", "KarcInspector",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        // What several test targets share: `eventually`, `Recorder`, `ScratchDirectory`.
        .target(name: "TestSupport", dependencies: ["KarcSynchronization", "KarcAsync"], path: "Tests/TestSupport"),
        .testTarget(
            name: "KarcAsyncTests",
            dependencies: [
                "KarcSynchronization",
                "KarcAsync",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "KarcTests",
            dependencies: [
                "KarcSynchronization",
                "Karc",
                "KarcAsync",
                "TrellisTesting",
                "TestSupport",
            ]
        ),
        .testTarget(name: "KarcReflectionTests", dependencies: ["KarcReflection"]),
        .testTarget(
            name: "AsyncDispatcherTests", dependencies: ["AsyncDispatcher", "KarcSynchronization", "TestSupport"]),
        .testTarget(
            name: "KarcShellTests",
            dependencies: [
                "KarcSynchronization",
                "KarcLanguage", "KarcReflection", "KarcRendering", "KarcSession", "KarcExplore", "KarcScriptTools", "KarcShell", "KarcShellTrellis",
                "KarcShellCluster", "KarcTrace", "KarcHistory", "KarcTestExport", "KarcOutput",
                "KarcCommand",
                "KarcAsync", "Karc", "Trellis", "TestSupport",
                "Compose", "TrellisCompose",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]
        ),
        // The inspector's server at the protocol's level: who gets in, the page, the events.
        .testTarget(
            name: "KarcInspectorTests",
            dependencies: [
                "KarcInspector", "KarcSession", "KarcOutput", "KarcSynchronization", "KarcSessionTrellis", "KarcDemo", "KarcHistory",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The smallest front on a session's output (SessionFront): what the browser builds on.
        .testTarget(
            name: "KarcFrontTests",
            dependencies: ["KarcOutput", "KarcSession", "KarcSessionTrellis", "KarcDemo"]
        ),
        .testTarget(
            name: "KarcDemoTests",
            dependencies: [
                "KarcDemo", "KarcShell", "KarcShellTrellis", "Trellis", "TrellisTesting", "TestSupport",
            ]
        ),
        .testTarget(
            name: "ComposeTests",
            dependencies: [
                "KarcSynchronization",
                "Compose",
                "TestSupport",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "TrellisTests",
            dependencies: [
                "KarcSynchronization",
                "Trellis",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                "Karc",
                "KarcAsync",
                "TrellisTesting",
                "TestSupport",
                "AsyncDispatcher",
            ]
        ),
        // The Trellis seed READMEs' examples (0.3 and classic), kept compiling and passing.
        .testTarget(
            name: "TrellisSeedExampleTests",
            dependencies: [
                "Trellis",
                "TestSupport",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // The seed README's Step 1–6 example, kept compiling and passing.
        .testTarget(
            name: "KarcSeedExampleTests",
            dependencies: ["KarcSynchronization", "Karc", "KarcAsync", "TrellisTesting", "TestSupport"]
        ),
        // README.md's library example (kept identical and passing) and runs of the real `karc` binary.
        .testTarget(
            name: "KarcEndToEndTests",
            dependencies: [
                "KarcSynchronization", "Karc", "KarcAsync", "Trellis", "KarcShell", "KarcShellTrellis", "KarcCommand", "KarcAttach", "TestSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
            ]),
        // The demo tour as `karc export-test` writes it (Tests/TourExportTests/TourTests.swift,
        // regenerated by `make readme`; KarcEndToEndTests checks it is current), compiled and run.
        .testTarget(
            name: "TourExportTests",
            dependencies: [
                "KarcDemo", "Compose", "Trellis", "TrellisCompose", "TrellisTesting", .product(name: "CustomDump", package: "swift-custom-dump"),
            ]
        ),
        // ClusterEndpoint in this process, driven at the protocol's level: limits,
        // ordering, stalled and vanishing shells, garbage on the socket.
        .testTarget(
            name: "KarcEndpointTests",
            dependencies: [
                "KarcSynchronization",
                "KarcEndpoint", "KarcAttachProtocol", "KarcSession", "KarcSessionTrellis", "Karc", "Trellis", "KarcAsync", "TestSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // A component tree mounted in a cluster (TrellisCompose).
        .testTarget(name: "TrellisComposeTests", dependencies: ["TrellisCompose", "Trellis", "Compose", "TrellisTesting"]),
        // The Combine bridges (OpenCombine on Linux).
        .testTarget(
            name: "CombineBridgeTests",
            dependencies: [
                "KarcSynchronization",
                "ComposeCombine", "TrellisCombine", "Compose", "Trellis",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android, .wasi])),
            ]
        ),
        // What `@Command` and `@CheckedSendable` expand to, and their diagnostics.
        .testTarget(
            name: "KarcMacroTests",
            dependencies: [
                "KarcMacroSupport",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
