import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import KarcAsync
import KarcAttachProtocol
import KarcInspector
import KarcSession
import Logging
import ServiceLifecycle
import Trellis

/// Lets `karc attach` drive a cluster in a running app: the same shell,
/// prompt and scripts as a local one, in front of the app's own cluster.
///
/// ```swift
/// let endpoint = ClusterEndpoint(cluster, name: "shop")
/// try await endpoint.run()          // or in a ServiceGroup, beside your server
/// ```
///
/// ```
/// karc attach ──gRPC (Unix socket, token)──▶ ClusterEndpoint ──▶ a session per shell
///                                                                  │ send / observe
///                                                                  ▼
///                                                               Cluster
/// ```
///
/// By default it listens on a Unix domain socket only its user can reach,
/// `$XDG_RUNTIME_DIR/karc/NAME.sock` (else `/tmp/karc-UID/NAME.sock`; the
/// directory 0700, the socket 0600), and writes a random token beside it
/// (`NAME.token`, 0600) that every call must carry. TCP is used only when
/// ``Configuration/address`` asks: loopback, or any other interface with TLS.
///
/// An attached shell's `:inspect` (`karc attach --inspect`) has the app
/// serve a browser page of that shell's session on 127.0.0.1, on a port of
/// its own, behind a token of its own, until the shell detaches
/// (``Configuration/servesInspector`` turns it off).
///
/// Each attached shell runs a session here, observing the cluster with a
/// bounded buffer of its own: a slow or stalled shell is told `lost N
/// records` and never makes the app wait. A `Service` of
/// swift-service-lifecycle: graceful shutdown ends the sessions (their
/// shells say the connection was lost) and removes the socket and token.
public struct ClusterEndpoint: ServiceLifecycle.Service {
    /// Where and how the endpoint listens, and its limits.
    public struct Configuration: Sendable {
        /// nil: the Unix socket named after the cluster in the runtime
        /// directory. Else a socket path (`/run/app/shop.sock`, `unix:PATH`)
        /// or `HOST:PORT` for TCP (port 0: any free port).
        public var address: String?
        /// Shells may read states and watch records; every send is refused.
        public var readOnly = false
        /// Shells attached at once; one more is refused (`resource exhausted`).
        public var maxShells = 16
        /// The largest message accepted or sent: a line, a batch of output, a file.
        public var maxMessageBytes = AttachProtocol.defaultMaxMessageBytes
        /// Bytes of a shell's lines held at most (a line costs its bytes and 64
        /// more): the shell sends lines only as its session takes them, so one
        /// piping a million lines holds this much here, not the million.
        public var lineCredit = AttachProtocol.defaultLineCredit
        /// Records buffered for a shell that falls behind before it is told
        /// `lost N records` (in the hub, then in its session's backlog, where
        /// a target's changes fold into one): 100,000 held +19 MB more of the
        /// app's memory for a shell that stopped reading (`remote.flood.rss`).
        public var recordBuffer = 20_000
        /// Bytes of output held for a shell that reads slowly: beyond them its
        /// session waits (a script's next line, a prompt's next records)
        /// while records wait in ``recordBuffer``.
        public var outputBuffer = AttachProtocol.outputHighWater
        /// A connection that opens no call within this time is closed (bytes
        /// that are not gRPC, a port scanner, a client that never asks): a
        /// shell opens its call as it connects.
        public var handshakeTimeout: Duration = .seconds(10)
        /// Connections open at once; past them a new one is closed as it
        /// comes, and the app logs it. nil: ``maxShells`` and 16 more (room
        /// for shells to be told they are over ``maxShells``). Whatever
        /// connects cannot take the app's file descriptors.
        public var maxConnections: Int?
        /// Where the token is written; nil: beside the socket (`NAME.token`), or in the runtime directory for TCP.
        public var tokenFile: String?
        /// TLS for TCP: PEM files of the certificate chain and private key.
        /// Required to listen on anything but a loopback address.
        public var tls: TLS?

        /// An attached shell may open a browser inspector of its session
        /// (`:inspect`, `karc attach --inspect`): the app serves it on
        /// 127.0.0.1 only, on a port of its own, to a page carrying the random
        /// token of the URL it prints, read-only when the endpoint is. false:
        /// `:inspect` on an attached shell says the app does not serve one.
        public var servesInspector = true

        /// What starts an attached session's inspector (read-only or not):
        /// KarcInspector's, unless a test gives one of its own.
        package var makeInspector: @Sendable (_ readOnly: Bool) -> any InspectorStarting = { InspectorStarter(readOnly: $0) }

        /// TLS's certificate chain and key, as PEM files.
        public struct TLS: Sendable {
            /// The PEM file of the certificate chain.
            public var certificateChain: String
            /// The PEM file of the private key.
            public var privateKey: String

            /// TLS with the certificate chain and key in these PEM files.
            public init(certificateChain: String, privateKey: String) {
                self.certificateChain = certificateChain
                self.privateKey = privateKey
            }
        }

        /// Listens at `address` (default: the Unix socket named after the cluster); with `readOnly`, every send is refused.
        public init(address: String? = nil, readOnly: Bool = false) {
            self.address = address
            self.readOnly = readOnly
        }
    }

    /// Where an endpoint listens once it has bound.
    public struct Listening: Sendable {
        /// `unix:/run/user/1000/karc/shop.sock`, or `127.0.0.1:7070`: what `karc attach` takes.
        public let address: String
        /// The token file `karc attach` reads (pass `--token-file` when it is not beside the socket).
        public let tokenFile: String
    }

    /// The cluster's name: the socket's, and what `karc attach NAME` finds.
    public let name: String
    /// Where and how the endpoint listens.
    public let configuration: Configuration
    let state: EndpointState

    /// An endpoint for `cluster`, named `name` (the prompt's name, and the socket's).
    public init(_ cluster: Cluster, name: String, configuration: Configuration = Configuration(), logger: Logger = Logger(label: "karc.endpoint")) {
        self.name = name
        self.configuration = configuration
        state = EndpointState(name: name, cluster: cluster, configuration: configuration, logger: logger)
    }

    /// Listens until the task is cancelled or a graceful shutdown comes.
    public func run() async throws {
        try await run { _ in }
    }

    /// Listens until the task is cancelled or a graceful shutdown comes;
    /// `onListening` is told where, once bound.
    /// - Throws: ``EndpointError`` when it cannot listen (the address is taken,
    ///   the directory belongs to someone else, TCP beyond loopback without TLS).
    public func run(onListening: @Sendable (Listening) -> Void) async throws {
        let address = try resolvedAddress()
        let tokenFile = configuration.tokenFile ?? AttachAddress.tokenPath(for: address, name: name)
        let token = AttachToken.make()
        do {
            try prepare(address, tokenFile: tokenFile)
            try AttachToken.write(token, to: tokenFile)
        } catch {
            throw EndpointError(error.message)
        }
        defer {
            if case .unix(let path) = address { unlink(path) }
            unlink(tokenFile)
        }
        let transport = HTTP2ServerTransport.Posix(
            address: socketAddress(address), transportSecurity: try transportSecurity(for: address),
            config: .defaults {
                $0.rpc.maxRequestPayloadSize = configuration.maxMessageBytes
                ($0.channelDebuggingCallbacks.onAcceptTCPConnection, $0.channelDebuggingCallbacks.onAcceptHTTP2Stream) = state.connections.callbacks
            })
        let server = GRPCServer(
            transport: transport, services: [AttachService(shared: state)],
            interceptors: [TokenCheck(token: token, tokenFile: tokenFile, logger: state.logger)])
        // serve() runs in a task of its own, ended by a graceful shutdown, never by
        // cancellation: cancelling a NIO server with connections still being
        // accepted traps (NIOAsyncWriter deinit). Cancelling `run` shuts down gracefully.
        let serving = Task { try await server.serve() }
        let stop: @Sendable () -> Void = { [state] in
            state.stopSessions()
            server.beginGracefulShutdown()
        }
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                let bound: GRPCNIOTransportCore.SocketAddress
                do {
                    bound = try await transport.listeningAddress
                } catch {
                    stop()
                    _ = try? await serving.value
                    throw EndpointError("cannot listen on \(address): \(Self.reason(error))")
                }
                if case .unix(let path) = address { chmod(path, 0o600) }
                let shown = bound.ipv4.map { "\($0.host):\($0.port)" } ?? bound.ipv6.map { "[\($0.host)]:\($0.port)" } ?? address.description
                state.logger.info("listening", metadata: ["address": "\(shown)", "cluster": "\(name)"])
                onListening(Listening(address: shown, tokenFile: tokenFile))
                try await serving.value
            } onCancel: {
                stop()
            }
        } onGracefulShutdown: {
            stop()
        }
    }

    /// Returns once `count` holds of the number of connections open (at
    /// once if it does now): a test awaits the endpoint's noticing a close.
    package func untilConnections(_ count: @escaping @Sendable (Int) -> Bool) async {
        await state.connections.until(count)
    }

    /// How many shells are attached now.
    public var attachedShells: Int { state.attachedShells }

    /// The most output bytes a session held for its shell, waiting to be
    /// written: when the shell stops reading, ``Configuration/outputBuffer``
    /// and what one command prints beyond it.
    package var heldOutputPeak: Int { state.output.peakBytes }

    /// Returns once `count` holds of the number of times a session waited
    /// for room in its output (at once if it does now).
    package func untilRoomWaits(_ count: @escaping @Sendable (Int) -> Bool) async {
        await state.output.untilRoomWaits(count)
    }

    /// Returns once `count` holds of the number of shells attached (at once
    /// if it does now): a test awaits a shell's leaving instead of polling
    /// ``attachedShells``.
    package func untilAttachedShells(_ count: @escaping @Sendable (Int) -> Bool) async {
        await state.untilAttached(count)
    }

    private func resolvedAddress() throws -> AttachAddress {
        guard let text = configuration.address else { return .unix(path: AttachAddress.socketPath(named: name)) }
        do {
            return try AttachAddress.parse(text)
        } catch {
            throw EndpointError(error.message)
        }
    }

    /// The directories, the refusal of TCP beyond loopback without TLS, and a stale socket.
    private func prepare(_ address: AttachAddress, tokenFile: String) throws(AttachError) {
        let defaultDirectory = AttachAddress.runtimeDirectory()
        if tokenFile.hasPrefix(defaultDirectory + "/") { try AttachAddress.prepareDirectory(defaultDirectory) }
        switch address {
        case .unix(let path):
            let directory = (path as NSString).deletingLastPathComponent
            if directory == defaultDirectory { try AttachAddress.prepareDirectory(directory) }
            guard FileManager.default.fileExists(atPath: directory.isEmpty ? "." : directory) else {
                throw AttachError("cannot listen on unix:\(path): no such directory \(directory)")
            }
            if SocketProbe.isListening(path) {
                throw AttachError(
                    "an endpoint listens on unix:\(path) already (another app named \(name)?): stop it, or give this one another name (karc serve --name NAME; in an app, ClusterEndpoint's name:) or address (--listen, Configuration's address)"
                )
            }
            unlink(path)  // a socket left by an app that did not stop cleanly
        case .tcp(let host, let port):
            if !address.isLocal, configuration.tls == nil {
                throw AttachError(
                    "refusing to listen on \(host):\(port) without TLS: anyone who reaches that interface could try the cluster. Listen on 127.0.0.1, or configure TLS (karc serve --tls-cert FILE --tls-key FILE)"
                )
            }
        }
    }

    private func socketAddress(_ address: AttachAddress) -> GRPCNIOTransportCore.SocketAddress {
        switch address {
        case .unix(let path): .unixDomainSocket(path: path)
        case .tcp(let host, let port):
            host.contains(":") ? .ipv6(host: host, port: port) : .ipv4(host: host == "localhost" ? "127.0.0.1" : host, port: port)
        }
    }

    private func transportSecurity(for address: AttachAddress) throws -> HTTP2ServerTransport.Posix.TransportSecurity {
        guard case .tcp = address, let tls = configuration.tls else { return .plaintext }
        return .tls(
            certificateChain: [.file(path: tls.certificateChain, format: .pem)],
            privateKey: .file(path: tls.privateKey, format: .pem))
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? RPCError { return error.message }
        return "\(error)"
    }
}
