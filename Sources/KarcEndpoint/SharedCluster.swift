import KarcSession

/// The cluster as one attached shell drives it: the traces its sends start
/// are noted in the endpoint's ``ShellTraces``, so that a change none of its
/// commands made says, from its record's trace, whether another shell's
/// command made it (`by another shell: counter.increment`) or the app.
final class SharedCluster<Base: ShellCluster>: ClusterWrapper {
    let base: Base
    private let traces: ShellTraces

    private let id: Int

    init(base: Base, traces: ShellTraces) {
        self.base = base
        self.traces = traces
        id = traces.newShell()
    }

    func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        traces.started(span, by: id)
        return try await base.send(command, to: target, span: span)
    }

    func startedElsewhere(trace: UInt64) -> String? {
        guard let owner = traces.owner(of: trace) else { return base.startedElsewhere(trace: trace) }
        return owner == id ? nil : "another shell"
    }
}

// Each capability's default (no unresettable target, invariants declared) and the wrapper's
// forwarding both fit: the base's answer, named here, is the one meant.
extension SharedCluster: ResettableShellCluster where Base: ResettableShellCluster {
    var unresettableTargets: [String] { base.unresettableTargets }
}
extension SharedCluster: RestorableShellCluster where Base: RestorableShellCluster {
    /// A restore (`:undo`, `:restore`) is this shell's trace too: another shell's watches say so.
    func restore(_ states: [String: any Sendable], span: UInt64) async throws {
        traces.started(span, by: id)
        try await base.restore(states, span: span)
    }
}
extension SharedCluster: InvariantCheckingShellCluster where Base: InvariantCheckingShellCluster {
    var declaresInvariants: Bool { base.declaresInvariants }
}
