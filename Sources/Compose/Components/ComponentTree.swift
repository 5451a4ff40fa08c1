/// A bound tree of components: what makes a root component (and everything
/// under it) active, without a UI.
///
/// ```swift
/// let app = ComponentTree(root: AppComponent())
/// app.root.auth.logIn.openSignUp.send()   // what a button would do
/// app.root.auth.router.path == \AuthComponent.signUp
/// app.unbind()
/// ```
///
/// Transitions (a component becoming active or inactive, a router
/// navigating) run one at a time, in order: a navigation asked for while
/// another runs (from an observer, say) runs right after it, before the
/// outer call returns. So when `send()` on an emitter returns, the
/// navigation its observers asked for has happened.
public final class ComponentTree<Root: Component>: Sendable {
    /// The root component.
    public let root: Root
    let node: ComponentNode

    /// Binds `root`: a ``StartupComponent`` is told before and after; the
    /// root and its children become active.
    public init(root: Root) {
        self.root = root
        let transitions = Transitions()
        node = ComponentNode(component: root, parent: nil, routeKey: nil, path: "", transitions: transitions)
        (root as? any StartupComponent)?.willBindRootComponent()
        transitions.perform { [node] in node.activate() }
        (root as? any StartupComponent)?.didBindRootComponent()
    }

    /// Makes every component inactive (their `didDisappear` fire, their observations end).
    public func unbind() {
        node.transitions.perform { [node] in node.deactivate() }
    }
}
