/// Push and pop on the router around a component (``EnclosingRouter``).
public struct EnclosingRoute: Sendable {
    let box: EnclosingRouterBox

    /// Pushes `route`, a key path from the component that declares the
    /// ``EnclosingRouter``; false (and the router's `refused` tells why) when it cannot.
    @discardableResult
    public func push<Root, Route: Routable>(_ route: KeyPath<Root, Route> & Sendable, animated: Bool = true) -> Bool {
        let (router, prefix, owner) = box.binding
        guard let router, let prefix, let key = prefix.path.appending(path: route) else {
            router?.refused.send(.noEnclosingRouter(component: owner))
            return false
        }
        return router.push(key: RouteKey(path: key), animated: animated)
    }

    /// Pops the top route of the enclosing router; false when there is none or only the root is left.
    @discardableResult
    public func pop(animated: Bool = true) -> Bool {
        box.binding.router?.pop(animated: animated) ?? false
    }
}
