import ArgumentParser
import Foundation
import KarcAttach
import KarcAttachProtocol
import KarcDemo
import KarcEndpoint
import KarcInspector
import KarcShell
import Logging
import ServiceLifecycle

/// `karc serve`: the demo cluster with an endpoint and no prompt, until SIGTERM, SIGINT or SIGHUP.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the demo cluster with an endpoint that `karc attach` drives, and no prompt.",
        discussion: """
            Listens on a Unix socket only you can reach ($XDG_RUNTIME_DIR/karc/NAME.sock, else \
            /tmp/karc-UID/NAME.sock; NAME is demo unless --name says) with a token beside it \
            (NAME.token), and prints where. `karc attach NAME` finds it. \
            --listen HOST:PORT uses TCP: loopback, or another interface with --tls-cert and \
            --tls-key. --inspect also serves a page of what the app does (docs/inspect.md), \
            on the port --inspect-port names if it does. \
            Stops cleanly (removing its socket and token) on SIGTERM, SIGINT (Ctrl-C) or SIGHUP \
            (its terminal closed).
            """)

    @OptionGroup var demo: DemoArguments
    @OptionGroup var live: DemoLiveArguments

    @Option(
        help: ArgumentHelp(
            "The endpoint's name: its socket and token file are NAME.sock and NAME.token, `karc attach NAME` finds it, and its prompt says NAME>. Run a second one beside the first under another name.",
            valueName: "NAME"))
    var name = "demo"

    @Option(help: ArgumentHelp("Where to listen: a socket path, unix:PATH, or HOST:PORT (port 0: any free one).", valueName: "ADDRESS"))
    var listen: String?

    @Flag(help: "Attached shells may read states and watch, but every send is refused.")
    var readOnly = false

    @Option(help: ArgumentHelp("How many shells may be attached at once.", valueName: "N"))
    var maxShells = 16

    @Option(help: ArgumentHelp("Where to write the token (default: beside the socket).", valueName: "FILE"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("TLS certificate chain (PEM), for TCP.", valueName: "FILE"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("TLS private key (PEM), for TCP.", valueName: "FILE"))
    var tlsKey: String?

    @Flag(
        help: ArgumentHelp(
            "Serve a live inspector of the app on 127.0.0.1 and print its URL: what the app and its attached shells do, as it happens,"
                + " and a command box (none with --read-only). docs/inspect.md says more."))
    var inspect = false

    @Option(
        name: .customLong("inspect-port"),
        help: ArgumentHelp(
            "Serve that inspector on this port of 127.0.0.1 (implies --inspect; without it, any free port): a port you forward"
                + " ahead (ssh -L PORT:127.0.0.1:PORT).", valueName: "PORT"))
    var inspectPort: Int?

    func validate() throws {
        try InspectArguments.validate(port: inspectPort)
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("TLS needs both --tls-cert and --tls-key") }
        if maxShells < 1 { throw ValidationError("--max-shells must be at least 1") }
        if name.isEmpty || name.contains("/") || name.hasPrefix(".") || name.contains(where: \.isWhitespace) {
            throw ValidationError("--name '\(name)' cannot name a socket: use letters, digits, '-' or '_' (demo, shop-2)")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger = Logger(label: "karc.serve")
        let cluster = try await DemoCluster.make(demo.options(live: live))
        var configuration = ClusterEndpoint.Configuration(address: listen, readOnly: readOnly)
        configuration.maxShells = maxShells
        configuration.tokenFile = tokenFile
        if let tlsCert, let tlsKey { configuration.tls = .init(certificateChain: tlsCert, privateKey: tlsKey) }
        // An attached shell's `:inspect` (`karc attach --inspect`) gets a page of its own session (servesInspector).
        let endpoint = ClusterEndpoint(cluster, name: name, configuration: configuration, logger: logger)
        let inspector = inspect || inspectPort != nil ? AppInspector(readOnly: readOnly, port: inspectPort ?? 0) : nil
        var inspectorURL: String?
        if let inspector {
            do {
                inspectorURL = try await inspector.start(endpoint.observedCluster())
            } catch {
                await cluster.shutDown()
                FileHandle.standardError.write(Data("karc serve: error: the inspector could not start: \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
        let announced = AnnouncingEndpoint(endpoint: endpoint, name: name, readOnly: readOnly, tlsCert: tlsCert, inspectorURL: inspectorURL)
        let group = ServiceGroup(configuration: .init(services: [announced], gracefulShutdownSignals: [.sigterm, .sigint, .sighup], logger: logger))
        do {
            try await group.run()
        } catch let error as EndpointError {
            await inspector?.stop()
            await cluster.shutDown()
            FileHandle.standardError.write(Data("karc serve: error: \(error.message)\n".utf8))
            throw ExitCode.failure
        }
        await inspector?.stop()
        await cluster.shutDown()
        FileHandle.standardOutput.write(Data("karc serve: stopped\n".utf8))
    }
}

/// The endpoint, saying where it listens once it does.
private struct AnnouncingEndpoint: Service {
    let endpoint: ClusterEndpoint
    let name: String
    let readOnly: Bool
    let tlsCert: String?
    let inspectorURL: String?

    func run() async throws {
        try await endpoint.run { listening in
            // The default socket of its name: `karc attach NAME` finds it (and with one endpoint running, `karc attach`).
            let isDefaultSocket = listening.address == "unix:" + AttachAddress.socketPath(named: name)
            // `karc attach` alone finds only the one endpoint listening: beside another it needs the name.
            let isOnly = AttachAddress.discover().count == 1
            var attach: String =
                if isDefaultSocket, name == "demo", isOnly {
                    "karc attach"
                } else if isDefaultSocket, !name.contains(where: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "_" }) {
                    "karc attach \(name)"
                } else {
                    "karc attach \(listening.address) --token-file \(listening.tokenFile)"
                }
            if let tlsCert { attach += " --tls-ca \(tlsCert)" }
            // Written at once (not through stdio's buffer): a script or a test waits for these lines.
            let text = """
                karc serve: the demo cluster\(name == "demo" ? "" : ", named \(name),") listens on \(listening.address)\(readOnly ? " (read-only)" : "") with the token in \(listening.tokenFile)
                karc serve: attach with: \(attach)   (Ctrl-C or SIGTERM stops)

                """ + (inspectorURL.map { "karc serve: inspector: \($0)\(readOnly ? " (read-only)" : "")\n" } ?? "")
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}

/// `karc attach [ADDRESS]`: the shell in front of a cluster in another process.
struct Attach: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Drive a cluster that runs in another process (an app's ClusterEndpoint, or karc serve).",
        discussion: AttachArguments.discussion)

    @OptionGroup var attach: AttachArguments

    func run() async throws {
        let status = await AttachClient.run(attach)
        if status != 0 { throw ExitCode(status) }
    }
}
