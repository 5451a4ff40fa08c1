/// Why a cluster could not be built or an action could not be handled.
public enum TrellisError: Error, Equatable, CustomStringConvertible {
    /// A `Store(model:)` has no model: no `.with(model:)` above it gives one of its type.
    case missingModel(store: String, path: String)
    /// No service of the cluster accepts actions of this type.
    case unhandledAction(type: String)
    /// ``Cluster/send(action:to:)`` named a target the cluster does not have.
    case unknownTarget(name: String, targets: [String])
    /// `send` was called on a `Send` that is not connected to a cluster.
    case noCluster
    /// The cluster was shut down; it takes no more actions.
    case shutDown
    /// ``Cluster/restore(_:)`` named a target whose state cannot be put
    /// back (an actor model that is not ``Restorable``).
    case notRestorable(target: String)
    /// ``Cluster/restore(_:)`` gave a target a state of another type than its own.
    case restoreTypeMismatch(target: String, expected: String, given: String)

    public var description: String {
        switch self {
        case .missingModel(let store, let path):
            return "\(store) at \(path) has no model: add .with(model:) with a \(store.dropFirst(6).dropLast()) above it"
        case .unhandledAction(let type):
            return "no service accepts actions of type \(type)"
        case .unknownTarget(let name, let targets):
            return "no target named '\(name)'; targets: \(targets.joined(separator: ", "))"
        case .noCluster:
            return "this send is not connected to a cluster"
        case .notRestorable(let target):
            return "'\(target)' cannot be restored: its model is not Restorable (conform it to Restorable to restore it)"
        case .restoreTypeMismatch(let target, let expected, let given):
            return "cannot restore '\(target)': its state is a \(expected), not a \(given)"
        case .shutDown:
            return "the cluster was shut down"
        }
    }
}
