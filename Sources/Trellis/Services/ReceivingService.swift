/// A service that handles actions itself (Trellis classic): the cluster
/// calls ``receive(_:)`` with each action of type ``Received``, and sends the
/// flow it returns next.
///
/// ```swift
/// actor AuthService: ReceivingService {
///     var user: User?
///     func receive(_ action: GatekeeperAction) async throws -> ActionFlow<GatekeeperAction> {
///         switch action {
///         case .login(let email, _): user = User(email: email); return .single(action: .loggedIn)
///         case .logout: user = nil
///         case .loggedIn: break
///         }
///         return .noop
///     }
/// }
/// ```
///
/// When it conforms to ``StatefulModel`` too, observers see its changes of
/// state; ``Restorable`` too, ``Cluster/restore(_:)`` puts one back; a
/// ``ResettableModel`` too, ``Cluster/reset()`` puts it back as it started.
public protocol ReceivingService: Service where Body == Never {
    /// The actions the service receives.
    associatedtype Received: Sendable
    /// The actions of the follow-up flows; usually ``Received``.
    associatedtype FollowUp: Sendable = Received
    /// Handles `action`; the actions of the returned flow are sent next, in order.
    func receive(_ action: Received) async throws -> ActionFlow<FollowUp>
}

extension ReceivingService {
    /// A receiving service has no body; reading it stops the process.
    public var body: Never { return fatalError("\(Self.self) receives actions itself, it has no body") }

    func buildLeaf(_ context: BuildContext) -> ServiceNode {
        let reader = StateReader.stateful(for: Self.self) { self }
        let cluster = context.cluster
        let target = cluster.register(name: context.name ?? "\(Self.self)", kind: .service, accepts: [Received.self], state: reader?.read)
        let report = StateReport(reader: reader, source: target, hub: cluster.hub)
        if let resettable = self as? any ResettableModel {
            cluster.onReset(target) { try await report.around { await resettable.reset() } }
        }
        if let restorable = self as? any Restorable { cluster.onRestore(target, restorable.restorer(report: report)) }
        return .leaf(
            ServiceLeaf(target: target, accepts: { $0 is Received }, environment: context.boundEnvironment) { action in
                guard let action = action as? Received else { return ServiceResult() }
                let flow = try await report.around { try await receive(action) }
                return flow.isEmpty ? ServiceResult() : ServiceResult(flows: [flow.actions.map { $0 as any Sendable }])
            })
    }
}
