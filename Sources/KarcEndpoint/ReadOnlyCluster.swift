import KarcSession

/// A cluster seen through a read-only endpoint: states, records and
/// `:wait` work; every send (and `:reset`, `:restore`, `:undo`) is refused, and says why.
struct ReadOnlyCluster<Base: ShellCluster>: ClusterWrapper {
    let base: Base

    struct Refused: Error, CustomStringConvertible {
        var description: String {
            "refused: this endpoint is read-only (sends are off; :state, :wait and what the app does still show)"
        }
    }

    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
        throw Refused()
    }

    func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        throw Refused()
    }
}

extension ReadOnlyCluster: ResettableShellCluster where Base: ResettableShellCluster {
    func reset() async throws {
        throw Refused()
    }

    var unresettableTargets: [String] { base.unresettableTargets }
}

extension ReadOnlyCluster: RestorableShellCluster where Base: RestorableShellCluster {
    func restore(_ states: [String: any Sendable], span: UInt64) async throws {
        throw Refused()
    }
}

extension ReadOnlyCluster: InvariantCheckingShellCluster where Base: InvariantCheckingShellCluster {
    var declaresInvariants: Bool { base.declaresInvariants }
}
