/// Sees the actions of one type before and after the services of a cluster
/// handle them (Trellis classic). Add one with ``Service/middleware(_:)``.
///
/// For each action: every middleware's ``pre(action:)`` in registration order
/// (the first redirect wins and replaces the action), then the services, then
/// every middleware's ``post(action:)``; when `pre` or a service throws, every
/// middleware's ``failure(action:error:)``, and the send throws.
///
/// A middleware with state is an actor:
///
/// ```swift
/// actor Gatekeeper: Middleware {
///     var signedIn = false
///     func pre(action: ArticlesAction) throws -> Rewrite<ArticlesAction> {
///         signedIn ? .none : .redirect(to: .single(action: .blocked(reason: "sign in first")))
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// The actions it sees (a concrete type, an enum or a protocol).
    associatedtype Handled: Sendable
    /// The actions it may redirect to; usually the same type.
    associatedtype Redirect: Sendable = Handled

    /// Before any service handles `action`: `.none` lets it through, `.redirect(to:)` replaces it.
    func pre(action: Handled) async throws -> Rewrite<Redirect>
    /// After every service handled `action` without error.
    func post(action: Handled) async
    /// When `pre` or a service threw `error` for `action`.
    func failure(action: Handled, error: any Error) async
}

extension Middleware {
    public func pre(action: Handled) async throws -> Rewrite<Redirect> { .none }
    public func post(action: Handled) async {}
    public func failure(action: Handled, error: any Error) async {}
}

/// A middleware with its types erased, as the cluster keeps it.
struct MiddlewareBox: Sendable {
    let name: String
    let accepts: @Sendable (any Sendable) -> Bool
    /// `nil` to let the action through, else the actions to send instead.
    let pre: @Sendable (any Sendable) async throws -> [any Sendable]?
    let post: @Sendable (any Sendable) async -> Void
    let failure: @Sendable (any Sendable, any Error) async -> Void

    init<M: Middleware>(_ middleware: M) {
        name = "\(M.self)"
        accepts = { $0 is M.Handled }
        pre = { action in
            guard let action = action as? M.Handled else { return nil }
            switch try await middleware.pre(action: action) {
            case .none: return nil
            case .redirect(let flow): return flow.actions
            }
        }
        post = { action in
            if let action = action as? M.Handled { await middleware.post(action: action) }
        }
        failure = { action, error in
            if let action = action as? M.Handled { await middleware.failure(action: action, error: error) }
        }
    }
}

extension Service {
    /// Adds `middleware` to the cluster: it sees every action of its
    /// `Handled` type sent to the cluster. Middlewares run in declaration
    /// order (`a.middleware(m1).middleware(m2)`: m1 first).
    public func middleware<M: Middleware>(_ middleware: M) -> ModifiedService<Self> {
        modified { context, content in
            let node = try await buildService(content, context)
            context.cluster.add(MiddlewareBox(middleware))
            return node
        }
    }
}
