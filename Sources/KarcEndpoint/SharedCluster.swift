import KarcSession

/// The cluster as one attached shell drives it: the traces its sends start
/// are noted in the endpoint's ``ShellTraces``, so that a change none of its
/// commands made says, from its record's trace, whether another shell's
/// command made it (`by another shell: counter.increment`) or the app.
final class SharedCluster: ClusterWrapper {
    let base: any ShellCluster
    private let traces: ShellTraces

    private let id: Int

    init(base: any ShellCluster, traces: ShellTraces) {
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
