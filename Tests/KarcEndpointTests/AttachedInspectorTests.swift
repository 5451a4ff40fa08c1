@_spi(KarcInternal) import KarcAsync
import KarcAttachProtocol
import KarcEndpoint
import KarcSession
import NIOCore
import NIOPosix
import Testing

/// An app's own `ClusterEndpoint` serves an attached shell's `:inspect`
/// (`karc attach --inspect`) a page of that shell's session, unless the app
/// turned it off.
@Suite(.timeLimit(.minutes(1))) struct AttachedInspectorTests {
    @Test func anAttachedShellsInspectIsServedByTheAppOnItsLoopback() async throws {
        let endpoint = try await RunningEndpoint()
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        shell.type(":inspect")
        #expect(await shell.until { $0.printed.contains("inspector: http://") })
        let url = try #require(shell.printed.firstMatch(of: /inspector: http:\/\/127\.0\.0\.1:(\d+)(\/\?token=[0-9a-f]{32})/))
        let page = try await httpGet(String(url.2), port: try #require(Int(url.1)))
        #expect(page.hasPrefix("HTTP/1.1 200 OK"), "\(page.prefix(200))")
        #expect(page.contains("<title>karc inspector"))
        let wrongToken = try await httpGet("/?token=" + String(repeating: "0", count: 32), port: try #require(Int(url.1)))
        #expect(wrongToken.hasPrefix("HTTP/1.1 403"))
        shell.close()
        try await endpoint.stop()
    }

    /// An inspector that starts at once and never ends stopping: a page
    /// that never lets go (one that reads nothing holds the real one its grace).
    final class StuckInspector: InspectorStarting {
        let inbox = SessionInbox()
        private let stopped = Pending<Void>()
        /// Resolved when the session asks its pages to let go.
        let stopAsked = Pending<Void>()

        func start() async throws -> sending InspectorStarted {
            InspectorStarted(url: "http://127.0.0.1:1/?token=stuck", front: nil)
        }

        func stop() async {
            stopAsked.finish(())
            _ = await stopped.value()
        }
    }

    /// A shell that leaves while its inspector's pages hold on: its call
    /// ends, and its place among `maxShells` is free, at once; the pages
    /// are let go in the background.
    @Test func aShellThatLeavesIsNotHeldByItsInspectorsPages() async throws {
        try await leavingWithAStuckInspector { _, _ in }
    }

    /// Ctrl-D first: the session ends and waits, for a shell still there,
    /// on its pages; the shell goes during that wait, and the wait ends.
    @Test func aShellThatLeavesWhileItsSessionWaitsForItsPagesIsNotHeld() async throws {
        try await leavingWithAStuckInspector { shell, stuck in
            shell.send(.with { $0.endOfInput = .init() })
            _ = await stuck.stopAsked.value()
            #expect(shell.end == nil, "a shell still there waits for its pages")
        }
    }

    /// An app that lets one shell attach, whose inspector never lets go: a
    /// shell asks for its page, does `beforeLeaving`, and leaves; its place
    /// is free (the next shell gets its prompt).
    private func leavingWithAStuckInspector(_ beforeLeaving: (TestShell, StuckInspector) async -> Void) async throws {
        let stuck = StuckInspector()
        let endpoint = try await RunningEndpoint {
            $0.maxShells = 1
            $0.makeInspector = { _ in stuck }
        }
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        shell.type(":inspect")
        #expect(await shell.until { $0.printed.contains("inspector: http://127.0.0.1:1/") })
        await beforeLeaving(shell, stuck)
        shell.close()
        await endpoint.endpoint.untilAttachedShells { $0 == 0 }
        let next = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await next.prompted())
        next.close()
        try await endpoint.stop()
    }

    @Test func anAppThatTurnedItOffSaysSo() async throws {
        let endpoint = try await RunningEndpoint { $0.servesInspector = false }
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        shell.type(":inspect")
        #expect(await shell.until { $0.printed.contains("error:") })
        #expect(shell.printed.contains("error: this shell cannot serve an inspector: its app turned it off"), "\(shell.printed)")
        shell.close()
        try await endpoint.stop()
    }

    /// `karc attach --inspect` (its hello's first command, `:inspect`): the
    /// URL comes on standard error before any command, numbered as none.
    @Test func anInspectorAskedForAtTheStartIsNoCommandAndItsURLIsOnStandardError() async throws {
        let endpoint = try await RunningEndpoint()
        var hello = TestShell.prompt
        hello.input = .script
        hello.options.json = true
        hello.commands = [":inspect", "nowhere.nothing"]
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token, hello: hello)
        shell.send(.with { $0.endOfInput = .init() })  // no script after the -e commands
        #expect(await shell.until { $0.end != nil })
        let errors = shell.messages.compactMap { message -> String? in
            guard case .output(let output)? = message.kind, output.stream == .stderr else { return nil }
            return String(decoding: output.text, as: UTF8.self)
        }.joined()
        #expect(errors.firstMatch(of: /^inspector: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}\n$/) != nil, "\(errors)")
        #expect(shell.printed.contains(#""seq":1"#) && !shell.printed.contains(#""seq":2"#), "the first command is #1: \(shell.printed)")
        #expect(!shell.printed.contains(":inspect"), "\(shell.printed)")
        shell.close()
        try await endpoint.stop()
    }

    /// A script that asked for an inspector the app does not serve runs nothing: it fails at once.
    @Test func aScriptThatAskedForAnInspectorTheAppDoesNotServeRunsNothing() async throws {
        let endpoint = try await RunningEndpoint { $0.servesInspector = false }
        var hello = TestShell.prompt
        hello.input = .script
        hello.commands = [":inspect", ":history"]
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token, hello: hello)
        #expect(await shell.until { $0.end != nil })
        #expect(shell.printed.contains("error: this shell cannot serve an inspector: its app turned it off"), "\(shell.printed)")
        #expect(!shell.printed.contains("#1"), "nothing ran: \(shell.printed)")
        let status = shell.messages.compactMap { message -> Int32? in if case .exit(let exit)? = message.kind { exit.status } else { nil } }
        #expect(status == [1])
        shell.close()
        try await endpoint.stop()
    }

    /// The whole answer to a GET of `path` on 127.0.0.1:`port`, as a browser asks.
    private func httpGet(_ path: String, port: Int) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"))
            var received = ""
            for try await buffer in inbound { received += String(buffer: buffer) }
            return received
        }
    }
}
