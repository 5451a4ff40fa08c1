import KarcShell

/// A cluster of the user's own, not Trellis, that implements only what a
/// `ShellCluster` requires: no targets, no reset, no snapshots. What the
/// shell says of what such a cluster cannot do is tested on it.
final class BareCluster: ShellCluster {
    let name = "bare"
    let catalog = Catalog(targets: [])
    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? { nil }
    func takeRecords() -> [ShellRecord] { [] }
    func settled(timeout: Duration) async -> Bool { true }
    func state(of target: String) async -> (any Sendable)? { nil }
}
