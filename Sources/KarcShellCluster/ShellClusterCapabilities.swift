/// A cluster that can put every target back as it started (`:reset`).
public protocol ResettableShellCluster: ShellCluster {
    /// Puts every target back as the cluster started; the changes come as
    /// records, as any others do.
    func reset() async throws
    /// The targets that show a state ``reset()`` cannot put back, in the
    /// cluster's order: `:reset` names them and changes nothing unless told
    /// `--partial` (a state half reset may be one the app never reaches).
    var unresettableTargets: [String] { get }
}

extension ResettableShellCluster {
    /// None: every target is put back.
    public var unresettableTargets: [String] { [] }
}

/// A cluster whose targets' states can be taken and put back (`:snapshot`,
/// `:restore`, `:undo`, snapshot files).
public protocol RestorableShellCluster: ShellCluster {
    /// The state of every target that can be restored, and the targets that
    /// show a state but cannot be.
    func snapshot() async throws -> RestorableStates
    /// Puts each target of `states` back to its state, in the trace whose
    /// root is `span`; checks every state before it changes anything. The
    /// changes come as records.
    func restore(_ states: [String: any Sendable], span: UInt64) async throws
    /// The type of the state `target` takes back, to read a snapshot file
    /// into; nil when it cannot be restored.
    func restorableStateType(of target: String) -> (any Sendable.Type)?
}

/// A cluster whose targets declare invariants: the shell checks them after
/// every command, and `explore` looks for a sequence that breaks one.
public protocol InvariantCheckingShellCluster: ShellCluster {
    /// The invariants that do not hold now, each named with its target
    /// (`'stock never negative' of inventory`).
    func brokenInvariants() async -> [String]
    /// Whether any target declares one now: when none does, the shell does
    /// not ask (an `await` a command saves).
    var declaresInvariants: Bool { get }
}

extension InvariantCheckingShellCluster {
    /// True: a cluster that checks invariants has some.
    public var declaresInvariants: Bool { true }
}

/// What a session's cluster can do beyond sending and observing, learnt
/// once from its type.
package struct ShellClusterCapabilities {
    package let resetting: (any ResettableShellCluster)?
    package let restoring: (any RestorableShellCluster)?
    package let checking: (any InvariantCheckingShellCluster)?

    package init(_ cluster: any ShellCluster) {
        resetting = cluster as? any ResettableShellCluster
        restoring = cluster as? any RestorableShellCluster
        checking = cluster as? any InvariantCheckingShellCluster
    }

    /// Why `:snapshot`, `:restore` and `:undo` do nothing on a cluster whose type cannot restore.
    package static let cannotRestore = "this cluster cannot restore its targets (its ShellCluster is not a RestorableShellCluster)"
    /// Why `:reset` does nothing on a cluster whose type cannot reset.
    package static let cannotReset = "this cluster cannot reset its targets (its ShellCluster is not a ResettableShellCluster)"
}
