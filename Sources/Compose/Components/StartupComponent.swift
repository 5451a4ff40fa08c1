/// The root component of an app: told before and after its tree is bound
/// (``ComponentTree/init(root:)``).
public protocol StartupComponent: Component {
    /// Before the tree is bound: set the app up (integrations, services).
    func willBindRootComponent()
    /// After the tree is bound: every child component, emitter and router is in place.
    func didBindRootComponent()
}

extension StartupComponent {
    /// Does nothing.
    public func willBindRootComponent() {}
    /// Does nothing.
    public func didBindRootComponent() {}
}
