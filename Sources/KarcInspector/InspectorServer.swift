import Foundation
import KarcFronts
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The inspector's HTTP and WebSocket server, on 127.0.0.1 only: the page
/// (``InspectorPage``) at `/?token=…`, its files, and the session's
/// messages on the WebSocket `/events?token=…`.
///
/// Who gets in: a request must name this server as its `Host` (a page of
/// another site that a DNS name points here is refused), the page and the
/// WebSocket need the token printed with the URL, and a WebSocket opened
/// from a page must come from this server's own origin. What is not a GET
/// of a known path gets 404 or 405; what is not HTTP closes the connection.
///
/// ```
///  browser ── GET /?token ──▶ page ── WebSocket /events?token ──▶ InspectorHub.connect ──▶ messages
///                                        │ a question (InspectorAsk) ──▶ SessionInbox ──▶ its answer, to that page
/// ```
package final class InspectorServer: Sendable {
    enum Connection {
        /// A WebSocket to the events, and why it is refused (nil: let in).
        case events(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, refusal: String?)
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    }

    /// A connection taken: its channel, and what its first request makes of it.
    struct Accepted: Sendable {
        let channel: any Channel
        let negotiated: EventLoopFuture<Connection>
    }

    package let port: Int
    package let token: String
    private let listener: NIOAsyncChannel<Accepted, Never>
    private let serving: Task<Void, Never>
    /// Frames written to pages, all told: whether the pages still read, when the session ends.
    private let written: Written

    final class Written: Sendable {
        let count = Atomic<Int>(0)
    }

    private init(
        port: Int, requests: InspectorRequests, listener: NIOAsyncChannel<Accepted, Never>, hub: InspectorHub,
        inbox: SessionInbox
    ) {
        self.port = port
        token = requests.token
        self.listener = listener
        let written = Written()
        self.written = written
        serving = Task { await Self.serve(listener, hub: hub, inbox: inbox, port: port, requests: requests, written: written) }
    }

    /// Listens on 127.0.0.1:`port` (0: a free one) for browsers of `hub`'s
    /// messages, whose questions go to `inbox`.
    package static func start(
        hub: InspectorHub, inbox: SessionInbox, port: Int = 0, token: String = InspectorServer.newToken()
    ) async throws -> InspectorServer {
        let requests = InspectorRequests(token: token)
        let listener = try await Self.sayingWhyRefused(port) {
            try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let upgrader = NIOTypedWebSocketServerUpgrader<Connection>(
                            maxFrameSize: 1 << 16,
                            // Every WebSocket to the events is taken, and one that is not let in is told why as it closes:
                            // a page learns the reason (a refused upgrade would leave it only "failed").
                            shouldUpgrade: { channel, head in
                                channel.eventLoop.makeSucceededFuture(InspectorRequests.isEvents(head) ? HTTPHeaders() : nil)
                            },
                            upgradePipelineHandler: { channel, head in
                                let port = channel.localAddress?.port ?? 0
                                return channel.eventLoop.makeCompletedFuture {
                                    .events(
                                        try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel),
                                        refusal: requests.eventsRefusal(head, port: port))
                                }
                            })
                        let configuration = NIOTypedHTTPServerUpgradeConfiguration(
                            upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in
                                channel.eventLoop.makeCompletedFuture {
                                    .http(
                                        try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                                            wrappingChannelSynchronously: channel))
                                }
                            })
                        let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                            configuration: .init(upgradeConfiguration: configuration))
                        // What is not HTTP is answered 400 by NIO's error handler; then the connection ends.
                        try channel.pipeline.syncOperations.addHandler(CloseOnError())
                        return Accepted(channel: channel, negotiated: negotiated)
                    }
                }
        }
        guard let bound = listener.channel.localAddress?.port else { throw InspectorError.notListening }
        return InspectorServer(port: bound, requests: requests, listener: listener, hub: hub, inbox: inbox)
    }

    /// Takes no more connections; those taken go on.
    package func stopListening() async {
        try? await listener.channel.close()
    }

    /// Stops listening and ends every connection: at once, or once they
    /// ended by themselves within `grace` (a page whose events finished is
    /// sent its close frame, "the session ended", then its connection ends).
    /// A page still reading (a frame written since the last look) is given
    /// `grace` again, up to `atMost` in all: a busy machine's page catches up
    /// with the end of a fast script instead of losing its last commands.
    package func stop(grace: Duration = .zero, atMost: Duration = .seconds(20)) async {
        await stopListening()
        let (serving, written) = (serving, written)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await serving.value }
            // A page that reads nothing would hold its connection: it gets `grace`, no more.
            group.addTask {
                var (waited, seen) = (Duration.zero, written.count.load(ordering: .relaxed))
                while waited < atMost, !Task.isCancelled {
                    try? await Task.sleep(for: grace)
                    waited += grace
                    let now = written.count.load(ordering: .relaxed)
                    if now == seen || grace == .zero { break }
                    seen = now
                }
            }
            await group.next()
            serving.cancel()
            group.cancelAll()
        }
    }

    /// `bind`, a port the user asked for (`--inspect-port`) that cannot be had said as such.
    private static func sayingWhyRefused<T>(_ port: Int, _ bind: () async throws -> T) async throws -> T {
        do {
            return try await bind()
        } catch let error as IOError {
            throw refusal(of: port, error) ?? error
        }
    }

    /// What the user is told when binding `port` failed with `error`: a port
    /// another program holds, or one below 1024 without the privilege; nil
    /// for anything else (and for a port the system chose).
    package static func refusal(of port: Int, _ error: IOError) -> InspectorError? {
        guard port != 0 else { return nil }
        switch error.errnoCode {
        case EADDRINUSE: return .portInUse(port)
        case EACCES, EPERM: return .portNotPermitted(port)
        default: return nil
        }
    }

    /// 32 hexadecimal digits from the system's random source: the one-time token of a URL.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
    }

    private static func serve(
        _ listener: NIOAsyncChannel<Accepted, Never>, hub: InspectorHub, inbox: SessionInbox, port: Int,
        requests: InspectorRequests, written: Written
    ) async {
        await withDiscardingTaskGroup { group in
            do {
                try await listener.executeThenClose { connections in
                    for try await accepted in connections {
                        group.addTask {
                            // A connection's failure (garbage, a browser gone) is that connection's alone. One that
                            // never sends its request (a preconnect, a silent client) is closed when the server stops:
                            // the wait for its request is not cancellable, its channel can be closed.
                            let connection = try? await withTaskCancellationHandler {
                                try await accepted.negotiated.get()
                            } onCancel: {
                                accepted.channel.close(promise: nil)
                            }
                            switch connection {
                            case .events(let channel, let refusal)?:
                                await Self.stream(hub, inbox: inbox, to: channel, refusal: refusal, written: written)
                            case .http(let channel)?: await Self.answer(channel, requests: requests, port: port)
                            case nil: break
                            }
                        }
                    }
                }
            } catch {
                // The listener closed: the connections end by themselves, or when `stop` cancels them.
            }
        }
    }

    /// The messages to one browser, while it is there; what it asks goes to
    /// the session, whose answer comes back among the messages (a close ends it).
    private static func stream(
        _ hub: InspectorHub, inbox: SessionInbox, to channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, refusal: String?,
        written: Written
    ) async {
        if let refusal {
            try? await channel.executeThenClose { _, outbound in try await outbound.write(Self.close(code: .policyViolation, reason: refusal)) }
            return
        }
        guard let (id, messages) = hub.connect(greeting: #"{"kind":"hello","version":1}"#) else {
            let close =
                hub.isFinished
                ? Self.close(code: .goingAway, reason: "the session ended")
                : Self.close(code: .policyViolation, reason: "too many browsers watch this session")
            try? await channel.executeThenClose { _, outbound in try await outbound.write(close) }
            return
        }
        defer { hub.disconnect(id) }
        try? await channel.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await message in messages {
                        try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: message)))
                        written.count.add(1, ordering: .relaxed)
                    }
                    try await outbound.write(Self.close(code: .goingAway, reason: "the session ended"))
                }
                group.addTask {
                    /// In a fragmented message, refused at its first frame: its continuations are not told again.
                    var inRefusedMessage = false
                    for try await frame in inbound {
                        // A browser masks every frame (RFC 6455, 5.1): one that does not is no browser's page.
                        guard frame.maskKey != nil else {
                            try await outbound.write(Self.close(code: .protocolError, reason: "a client's frames are masked (RFC 6455, 5.1)"))
                            return
                        }
                        switch frame.opcode {
                        case .connectionClose: return
                        case .ping: try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                        case .continuation where inRefusedMessage: inRefusedMessage = !frame.fin
                        case .text where frame.fin: Self.ask(frame.unmaskedData.readableBytesView, of: inbox, for: id, hub: hub)
                        case .text, .continuation, .binary:
                            inRefusedMessage = !frame.fin
                            hub.tell(InspectorAsk.answer(SessionAnswer.refusal("a question is one JSON text frame, unfragmented"), id: nil), to: id)
                        default: continue
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Hands a page's question to the session; its answer goes to that page
    /// alone, when it comes (the session answers between commands).
    private static func ask(_ frame: ByteBufferView, of inbox: SessionInbox, for browser: Int, hub: InspectorHub) {
        switch InspectorAsk.decode(frame) {
        case .failure(let problem):
            hub.tell(InspectorAsk.answer(SessionAnswer.refusal(problem.message), id: problem.id), to: browser)
        case .success(let (id, question)):
            // Not awaited here: the page's pings and other questions go on while the session is busy. The inbox bounds how many wait.
            Task { hub.tell(InspectorAsk.answer(await inbox.ask(question), id: id), to: browser) }
        }
    }

    private static func close(code: WebSocketErrorCode, reason: String) -> WebSocketFrame {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    }

    /// Answers one connection's requests: the page, its files, or why not.
    private static func answer(
        _ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, requests: InspectorRequests, port: Int
    ) async {
        try? await channel.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let response = requests.response(to: head, port: port)
                var headers = HTTPHeaders()
                headers.add(name: "Content-Type", value: response.type)
                headers.add(name: "Content-Length", value: String(response.body.utf8.count))
                headers.add(name: "Cache-Control", value: "no-store")
                headers.add(name: "X-Content-Type-Options", value: "nosniff")
                headers.add(name: "Connection", value: "close")
                // The page's own files only, its own WebSocket, and no frame, form or referrer (the URL holds the token).
                headers.add(name: "Content-Security-Policy", value: InspectorRequests.contentSecurityPolicy(port: port))
                headers.add(name: "Referrer-Policy", value: "no-referrer")
                headers.add(name: "X-Frame-Options", value: "DENY")
                try await outbound.write(
                    contentsOf: [
                        .head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers)),
                        .body(.byteBuffer(ByteBuffer(string: response.body))), .end(nil),
                    ])
                return
            }
        }
    }
}

/// Ends a connection whose bytes are not HTTP (after NIO's error handler answered 400).
private final class CloseOnError: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

/// Why the inspector did not start.
package enum InspectorError: Error, CustomStringConvertible {
    case notListening
    /// The port asked for is taken by another program.
    case portInUse(Int)
    /// The port asked for needs a privilege this process lacks (below 1024, not root).
    case portNotPermitted(Int)

    package var description: String {
        switch self {
        case .notListening: "the inspector could not listen on 127.0.0.1"
        case .portInUse(let port):
            "127.0.0.1:\(port) is in use by another program: give another --inspect-port, or leave it out for any free port"
        case .portNotPermitted(let port):
            "127.0.0.1:\(port) needs a privilege this process lacks (ports below 1024 are the system's): give an --inspect-port from 1024 to 65535, or leave it out for any free port"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
