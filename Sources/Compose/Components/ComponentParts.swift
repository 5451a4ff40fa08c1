/// What a component holds, found through its mirror: child components,
/// instance components, `@Store`s and `@EnclosingRouter`s, each with the
/// name of the property that holds it.
struct ComponentParts {
    var components: [(label: String, component: any Component)] = []
    var instances: [(label: String, holder: any InstanceHolder)] = []
    var stores: [(label: String, store: any ComponentStore)] = []
    var enclosingRouters: [EnclosingRouterBox] = []

    init(of component: any Component) {
        for (index, child) in Mirror(reflecting: component).children.enumerated() {
            // A property wrapper's storage is `_name`: the name written in the component is `name`.
            let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? "\(index)"
            switch child.value {
            case let nested as any Component: components.append((label, nested))
            case let holder as any InstanceHolder: instances.append((label, holder))
            case let store as any ComponentStore: stores.append((label, store))
            case let enclosing as EnclosingRouter: enclosingRouters.append(enclosing.box)
            default: break
            }
        }
    }
}

/// A ``Store``, whatever its state type, as the tree reads it.
protocol ComponentStore: Sendable {
    /// The state now.
    var anyState: any AnyState { get }
    /// Calls `handler` after each change of the state.
    func observeChanges(_ handler: @escaping @Sendable () -> Void) -> Subscription
    /// Takes part in `registry` (its `@Ref`s kept the same as the tree's) until
    /// the subscription is cancelled; nil when its state holds no reference.
    func joinReferences(_ registry: ReferenceRegistry) -> Subscription?
}

extension Store: ComponentStore {
    var anyState: any AnyState { wrappedValue }

    func observeChanges(_ handler: @escaping @Sendable () -> Void) -> Subscription {
        willChange.subscribe { _ in handler() }
    }

    func joinReferences(_ registry: ReferenceRegistry) -> Subscription? {
        references == nil ? nil : registry.join(self)
    }
}
