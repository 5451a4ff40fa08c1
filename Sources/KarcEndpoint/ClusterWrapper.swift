import KarcLanguage
import KarcSession

/// A cluster seen through another: everything but what the wrapper changes
/// (its `send`, and what it says of itself) is the base's, and it can do
/// what its base can (each capability a conditional conformance).
protocol ClusterWrapper: ShellCluster {
    associatedtype Base: ShellCluster
    var base: Base { get }
}

extension ClusterWrapper {
    var name: String { base.name }
    var catalog: Catalog { base.catalog }
    func takeRecords() -> [ShellRecord] { base.takeRecords() }
    var recordBuffer: Int { base.recordBuffer }
    func nextRecords() async -> [ShellRecord]? { await base.nextRecords() }
    func settled(timeout: Duration) async -> Bool { await base.settled(timeout: timeout) }
    func state(of target: String) async -> (any Sendable)? { await base.state(of: target) }
    var workInFlight: Int? { base.workInFlight }
    func settled(timeout: Duration, beyond baseline: Int) async -> Bool { await base.settled(timeout: timeout, beyond: baseline) }
    func sessionStarted() { base.sessionStarted() }
    var changesFromElsewhere: String { base.changesFromElsewhere }
    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? { try await base.send(command, to: target) }
    func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        try await base.send(command, to: target, span: span)
    }
    func startedElsewhere(trace: UInt64) -> String? { base.startedElsewhere(trace: trace) }
}

extension ClusterWrapper where Base: ResettableShellCluster {
    func reset() async throws { try await base.reset() }
}

extension ClusterWrapper where Base: RestorableShellCluster {
    func snapshot() async throws -> RestorableStates { try await base.snapshot() }
    func restore(_ states: [String: any Sendable], span: UInt64) async throws { try await base.restore(states, span: span) }
    func restorableStateType(of target: String) -> (any Sendable.Type)? { base.restorableStateType(of: target) }
}

extension ClusterWrapper where Base: InvariantCheckingShellCluster {
    func brokenInvariants() async -> [String] { await base.brokenInvariants() }
}
