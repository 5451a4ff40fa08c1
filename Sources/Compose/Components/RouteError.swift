/// Why a router did not navigate (``Router/refused``).
public enum RouteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The route is a ``DynamicComponent`` that has not been created.
    case notCreated(route: String)
    /// The route leads to something that is not a component.
    case notAComponent(route: String)
    /// An ``EnclosingRouter`` has no router around it, or is not reached through routes from it.
    case noEnclosingRouter(component: String)

    public var description: String {
        switch self {
        case .notCreated(let route): "\(route) is a DynamicComponent that was not created: call create(_:) before routing to it"
        case .notAComponent(let route): "\(route) is not a component"
        case .noEnclosingRouter(let component):
            "\(component) has no router around it that routes to it: @EnclosingRouter works in a component a router shows"
        }
    }
}
