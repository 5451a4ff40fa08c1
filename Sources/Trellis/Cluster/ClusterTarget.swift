/// One thing in a cluster that takes actions, as tooling sees it: the shell
/// uses targets for `:help`, completion and `:state`.
public struct ClusterTarget: Sendable, CustomStringConvertible {
    /// What kind of service a target is.
    public enum Kind: String, Sendable {
        /// A store, a Karc model, a dispatcher, a mounted component tree, or another service.
        case store, model, dispatcher, components, service
    }

    /// Unique in the cluster: the name given with `.named(_:)`, else the model's type name.
    public let name: String
    /// What kind of service the target is.
    public let kind: Kind
    /// The action (command) types the target accepts, in declaration order.
    public let accepts: [Any.Type]
    /// Reads the target's current state; `nil` for targets without one.
    public let state: (@Sendable () async -> any Sendable)?
    /// The event types it emits, when it says (a mounted model's `events:`), for tooling.
    public let events: [Any.Type]
    /// The commands it names itself beside ``accepts`` (a mounted component tree's emitters).
    public let commands: [TargetCommand]
    /// What its state must always be (``Service/invariant(_:_:)``).
    public let invariants: [Invariant]

    init(
        name: String, kind: Kind, accepts: [Any.Type], state: (@Sendable () async -> any Sendable)?, events: [Any.Type] = [],
        commands: [TargetCommand] = [], invariants: [Invariant] = []
    ) {
        self.name = name
        self.kind = kind
        self.accepts = accepts
        self.state = state
        self.events = events
        self.commands = commands
        self.invariants = invariants
    }

    public var description: String {
        "\(name) (\(kind.rawValue)): \((accepts.map { "\($0)" } + commands.map(\.name)).joined(separator: ", "))"
    }
}
