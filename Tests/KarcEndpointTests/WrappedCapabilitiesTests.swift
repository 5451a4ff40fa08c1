import KarcSession
import KarcSessionTrellis
import Testing
import Trellis

@testable import KarcEndpoint

/// A cluster of the user's own that sends and nothing more: no reset, no snapshots, no invariants.
private final class SendOnlyCluster: ShellCluster {
    let name = "send-only"
    let catalog = Catalog(targets: [])
    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? { nil }
    func takeRecords() -> [ShellRecord] { [] }
    func settled(timeout: Duration) async -> Bool { true }
    func state(of target: String) async -> (any Sendable)? { nil }
}

/// What an attached shell's cluster can do is what the app's can: the
/// endpoint's wrappers conform to a capability exactly when their base does.
@Suite(.timeLimit(.minutes(1))) struct WrappedCapabilitiesTests {
    @Test func aWrappedClusterCanDoWhatItsBaseCanAndNoMore() async throws {
        let traces = ShellTraces()
        let sendOnly: any ShellCluster = SharedCluster(base: SendOnlyCluster(), traces: traces)
        #expect(sendOnly as? any ResettableShellCluster == nil)
        #expect(sendOnly as? any RestorableShellCluster == nil)
        #expect(sendOnly as? any InvariantCheckingShellCluster == nil)

        let cluster = try await Bootstrap {
            Store(model: Int.self).mutate(on: String.self) { count, _, _ in count += 1 }.with(model: 0).named("count")
        }
        let shell = ClusterShell(name: "counting", cluster: cluster)
        defer { shell.stopObserving() }
        let shared = SharedCluster(base: shell, traces: traces)
        let full: any ShellCluster = shared
        #expect(full as? any ResettableShellCluster != nil)
        #expect(full as? any InvariantCheckingShellCluster != nil)
        let restoring = try #require(full as? any RestorableShellCluster)
        #expect(try await restoring.snapshot().states["count"] as? Int == 0)

        // Read-only: it still can, and refuses, saying why.
        let readOnly: any ShellCluster = ReadOnlyCluster(base: shared)
        let resetting = try #require(readOnly as? any ResettableShellCluster)
        await #expect(throws: ReadOnlyCluster<SharedCluster<ClusterShell>>.Refused.self) { try await resetting.reset() }
        await cluster.shutDown()
    }
}
