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
    /// Which attached shell started which trace (who made a change a shell did not).
    let traces = ShellTraces()
    private let attached = KarcMutex(0)
    /// How to end each running session, by id; nil once the endpoint stops.
    private let sessions = KarcMutex<(next: Int, stops: [Int: @Sendable () -> Void])?>((0, [:]))

    init(name: String, cluster: Cluster, configuration: ClusterEndpoint.Configuration, logger: Logger) {
        self.name = name
        self.cluster = cluster
        self.configuration = configuration
        self.logger = logger
        catalog = ClusterShell.catalog(of: cluster)
        // Plain structs of strings: encoding cannot fail.
        catalogJSON = (try? JSONEncoder().encode(CatalogSummary(catalog))) ?? Data()
    }

    /// Counts a shell in, unless the limit is reached.
    func admit() -> Bool {
        attached.withLock { count in
            guard count < configuration.maxShells else { return false }
            count += 1
            return true
        }
    }

    func release() {
        attached.withLock { $0 -= 1 }
    }

    var attachedShells: Int { attached.withLock { $0 } }

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
