import Foundation
import KarcAsync
import KarcLanguage
import KarcSession
import KarcSessionTrellis
import KarcSynchronization
import Logging
import Trellis

/// What every session of one endpoint shares: the cluster, its catalog
/// (probed once), the limits, and how many shells are attached.
final class EndpointState: Sendable {
    let name: String
    let cluster: Cluster
    let catalog: Catalog
    /// The catalog as the shell's prompt reads it (``CatalogSummary``, JSON).
    let catalogJSON: Data
    let configuration: ClusterEndpoint.Configuration
    let logger: Logger
    /// The connections open, each closed unless it talks (``ConnectionGuard``).
    let connections: ConnectionGuard
    /// Which attached shell started which trace (who made a change a shell did not).
    let traces = ShellTraces()
    /// What the sessions hold for their shells (``OutputGauge``).
    let output = OutputGauge()
    private let attached = KarcMutex(Attached())

    /// How many shells are attached, and the tests waiting for a number of them.
    private struct Attached {
        var count = 0
        var watchers = StateWatchers()
    }
    /// How to end each running session, by id; nil once the endpoint stops.
    private let sessions = KarcMutex<(next: Int, stops: [Int: @Sendable () -> Void])?>((0, [:]))

    init(name: String, cluster: Cluster, configuration: ClusterEndpoint.Configuration, logger: Logger) {
        self.name = name
        self.cluster = cluster
        self.configuration = configuration
        self.logger = logger
        connections = ConnectionGuard(
            handshakeTimeout: configuration.handshakeTimeout, limit: configuration.maxConnections ?? configuration.maxShells + 16, logger: logger)
        catalog = ClusterShell.catalog(of: cluster)
        // Plain structs of strings: encoding cannot fail.
        catalogJSON = (try? JSONEncoder().encode(CatalogSummary(catalog))) ?? Data()
    }

    /// Counts a shell in, unless the limit is reached.
    func admit() -> Bool {
        changingAttached { count in
            guard count < configuration.maxShells else { return false }
            count += 1
            return true
        }
    }

    func release() {
        changingAttached { $0 -= 1 }
    }

    var attachedShells: Int { attached.withLock { $0.count } }

    /// Returns once `count` holds of the number of shells attached (at once if it does now).
    func untilAttached(_ count: @escaping @Sendable (Int) -> Bool) async {
        await StateWatchers.until({ count($0.count) }, in: attached, at: \.watchers)
    }

    private func changingAttached<T>(_ change: (inout Int) -> T) -> T {
        let (result, met) = attached.withLock { state in
            let result = change(&state.count)
            return (result, StateWatchers.satisfied(in: &state, \.watchers))
        }
        for watcher in met { watcher.resume() }
        return result
    }

    /// Registers how to end a session when the endpoint stops; nil when it is stopping already.
    func register(stop: @escaping @Sendable () -> Void) -> Int? {
        sessions.withLock { sessions -> Int? in
            guard sessions != nil else { return nil }
            sessions!.next += 1  // not nil: checked just above, under the same lock
            sessions!.stops[sessions!.next] = stop
            return sessions!.next
        }
    }

    func unregister(_ id: Int) {
        sessions.withLock { _ = $0?.stops.removeValue(forKey: id) }
    }

    /// The endpoint stops: every session ends now (its shell hears that the connection was lost).
    func stopSessions() {
        let stops = sessions.withLock { sessions in
            defer { sessions = nil }
            return sessions.map { Array($0.stops.values) } ?? []
        }
        stops.forEach { $0() }
    }
}
