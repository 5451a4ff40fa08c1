/// A service that a module beside Trellis builds (TrellisCompose's
/// component trees): it registers its target with the cluster and says
/// which actions it handles and how. `package`: the way in for the
/// package's own bridges, not a user API.
package protocol MountedService: Service where Body == Never {
    /// Registers the service's target (`cluster.register`) and returns its handler.
    /// - Parameters:
    ///   - cluster: The cluster being built.
    ///   - name: The name `.named(_:)` gave the target, if one did.
    func mount(in cluster: Cluster, name: String?) async throws -> MountedHandler
}

extension MountedService {
    /// A mounted service has no body; reading it stops the process.
    public var body: Never { return fatalError("\(Self.self) is mounted by the cluster, it has no body") }
}

/// How a ``MountedService`` handles actions.
package struct MountedHandler: Sendable {
    /// The target the handler belongs to (as `cluster.register` named it).
    let target: String
    /// Whether it takes `action`; must depend on the action's type only (the answer is cached per type).
    let accepts: @Sendable (any Sendable) -> Bool
    /// Handles an action it accepts.
    let run: @Sendable (any Sendable) async throws -> Void

    /// A handler of the target `target`.
    package init(target: String, accepts: @escaping @Sendable (any Sendable) -> Bool, run: @escaping @Sendable (any Sendable) async throws -> Void) {
        self.target = target
        self.accepts = accepts
        self.run = run
    }
}
