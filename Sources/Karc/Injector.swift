import KarcSynchronization

/// A scope that keeps a resource acquired while it is active, so pipelines can
/// `@Inject` it.
///
/// ```swift
/// @ScopesBuilder
/// override func scopes(_ s: State, _ i: Interactor) -> [Scope] {
///     Injector<StorageResource>()
///     i.main
/// }
/// ```
public struct Injector<R>: Sendable {
    let id: any Hashable & Sendable
    let key: ScopeKey

    /// A scope that keeps the resources registered under `id` acquired while it is active.
    public init<Id: Hashable & Sendable>(id: Id) {
        self.id = id
        self.key = ScopeKey(kind: "injector", name: "\(R.self)", id: "\(id)")
    }

    /// A scope that keeps the resources with the default id acquired while it is active.
    public init() {
        self.init(id: DefaultId.shared)
    }

    var scope: Scope {
        let id = id
        return Scope(key: key) { InjectorRunner<R>(id: id) }
    }
}

final class InjectorRunner<R>: ScopeRunner {
    let id: any Hashable & Sendable
    private let context = Locked<ScopeContext?>(nil)

    init(id: any Hashable & Sendable) { self.id = id }

    func start(_ ctx: ScopeContext) async {
        do {
            try await ctx.environ.acquire(R.self, id: id)
            context.set(ctx)
        } catch {
            ctx.logger.error("[\(ctx.modelUid)] injector \(R.self) could not acquire: \(error)")
        }
    }

    func stop() async {
        guard let ctx = context.take() else { return }
        do {
            try await ctx.environ.release(R.self, id: id)
        } catch {
            ctx.logger.error("[\(ctx.modelUid)] injector \(R.self) could not release: \(error)")
        }
    }
}
