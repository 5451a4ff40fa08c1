/// Actions to send one after another, in order: what a ``ReceivingService``
/// returns as follow-up work and what a ``Middleware`` redirects to.
///
/// ```swift
/// return .single(action: .fetchArticles).then(.fetchFavs)
/// ```
public struct ActionFlow<A: Sendable>: Sendable {
    /// The actions, in the order they are sent.
    public private(set) var actions: [A]

    /// A flow of `actions`, in order.
    public init(actions: [A] = []) { self.actions = actions }

    /// No action: nothing more to do.
    public static var noop: ActionFlow { ActionFlow() }

    /// One action.
    public static func single(action: A) -> ActionFlow { ActionFlow(actions: [action]) }

    /// This flow, then `action`.
    public func then(_ action: A) -> ActionFlow { ActionFlow(actions: actions + [action]) }

    /// This flow, then every action of `flow`.
    public func then(flow: ActionFlow) -> ActionFlow { ActionFlow(actions: actions + flow.actions) }

    /// Whether the flow has no action.
    public var isEmpty: Bool { actions.isEmpty }
}

extension Action {
    /// This action, then `next`.
    public func then(_ next: Self) -> ActionFlow<Self> { ActionFlow(actions: [self, next]) }

    /// This action, then every action of `flow` (the seed's "postpone until" pattern).
    public func then(flow: ActionFlow<Self>) -> ActionFlow<Self> { ActionFlow(actions: [self] + flow.actions) }
}

/// What a middleware's `pre(action:)` decides for an action.
public enum Rewrite<A: Sendable>: Sendable {
    /// Let the action through to the services.
    case none
    /// Send these actions instead of this one. Their actions skip the
    /// middlewares' `pre` (they were decided already), so a redirect never
    /// loops; `post` and `failure` still see them.
    case redirect(to: ActionFlow<A>)
}
