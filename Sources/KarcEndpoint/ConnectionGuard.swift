import KarcAsync
import KarcSynchronization
import Logging
import NIOCore

/// Keeps the endpoint's connections to those that talk to it: a connection
/// that opens no gRPC call within ``ClusterEndpoint/Configuration/handshakeTimeout``
/// (bytes that are not gRPC and no close, a port scanner, a client that
/// never asks) is closed, and past ``ClusterEndpoint/Configuration/maxConnections``
/// open at once a new one is closed as it comes. So whatever connects to
/// the socket or port cannot hold the app's file descriptors, and a shell
/// that comes after finds room.
///
/// The transport tells it of each connection it accepts and of each call
/// (an HTTP/2 stream) opened on one; a connection counts as talking from its
/// first call, whatever that call's token (``TokenCheck`` answers a wrong one
/// and the client, told, goes).
final class ConnectionGuard: Sendable {
    /// Each open connection, and whether it opened a call yet.
    private let state = KarcMutex(Open())

    private struct Open {
        var connections: [ObjectIdentifier: Bool] = [:]
        /// Tests waiting for a number of connections.
        var watchers = StateWatchers()
    }
    private let timeout: TimeAmount
    private let limit: Int
    private let logger: Logger

    init(handshakeTimeout: Duration, limit: Int, logger: Logger) {
        let (seconds, attoseconds) = handshakeTimeout.components
        timeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        self.limit = max(1, limit)
        self.logger = logger
    }

    /// Returns once `count` holds of the number of connections open (at once if it does now).
    func until(_ count: @escaping @Sendable (Int) -> Bool) async {
        await StateWatchers.until({ count($0.connections.count) }, in: state, at: \.watchers)
    }

    private func changing<T>(_ change: (inout [ObjectIdentifier: Bool]) -> T) -> T {
        let (result, met) = state.withLock { state in
            let result = change(&state.connections)
            return (result, StateWatchers.satisfied(in: &state, \.watchers))
        }
        for watcher in met { watcher.resume() }
        return result
    }

    /// A connection was accepted: closed at once past the limit, else closed
    /// after the timeout unless it opened a call by then.
    func accepted(_ connection: any Channel) -> EventLoopFuture<Void> {
        let id = ObjectIdentifier(connection)
        let admitted = changing { open in
            guard open.count < limit else { return false }
            open[id] = false
            return true
        }
        guard admitted else {
            logger.warning(
                "closed a connection as it came: \(limit) are open, the endpoint's limit (maxConnections)",
                metadata: ["peer": "\(Self.peer(of: connection))"])
            connection.close(promise: nil)
            return connection.eventLoop.makeSucceededVoidFuture()
        }
        connection.closeFuture.whenComplete { _ in self.changing { _ = $0.removeValue(forKey: id) } }
        let (timeout, logger) = (timeout, logger)
        connection.eventLoop.scheduleTask(in: timeout) {
            guard self.state.withLock({ $0.connections[id] == false }) else { return }
            logger.notice(
                "closed a connection that opened no call within \(timeout.nanoseconds / 1_000_000) ms: not a karc shell, or one that hung",
                metadata: ["peer": "\(Self.peer(of: connection))"])
            connection.close(promise: nil)
        }
        return connection.eventLoop.makeSucceededVoidFuture()
    }

    /// A call opened on a connection (the stream's parent): it talks.
    func opened(_ stream: any Channel) -> EventLoopFuture<Void> {
        if let connection = stream.parent {
            let id = ObjectIdentifier(connection)
            state.withLock { state in
                if state.connections[id] != nil { state.connections[id] = true }
            }
        }
        return stream.eventLoop.makeSucceededVoidFuture()
    }

    /// The callbacks that tell the guard, for the transport's configuration.
    var callbacks: (accepted: @Sendable (any Channel) -> EventLoopFuture<Void>, opened: @Sendable (any Channel) -> EventLoopFuture<Void>) {
        ({ self.accepted($0) }, { self.opened($0) })
    }

    private static func peer(of connection: any Channel) -> String {
        guard let address = connection.remoteAddress else { return "unknown" }
        // Over a Unix socket the peer has no address of its own.
        if case .unixDomainSocket = address { return "a process of this user (Unix socket)" }
        return "\(address)"
    }
}
