/// A shared dispatcher that is also a global actor: actions adopting
/// ``SimpleFlowAction`` are scheduled on it, off the main actor, one at a
/// time, and code marked `@SimpleFlow` runs on the same actor as they do.
///
/// ```swift
/// struct Load: SimpleFlowAction {
///     func execute(with flow: isolated SimpleFlow) async { … }
/// }
/// try await Load().dispatch()
/// ```
///
/// An action's `execute` may use another actor for its own state; the
/// dispatcher only decides where actions are scheduled. From an action,
/// call `@SimpleFlow` code with `await`: the compiler cannot tell that the
/// `isolated` dispatcher is ``shared``, but at run time there is no hop.
@globalActor
public actor SimpleFlow: ActingDispatcher {
    /// The shared dispatcher, and the global actor's instance.
    public static let shared = SimpleFlow()

    /// The shared dispatcher (the seed's name).
    public static var sharedDispatcher: SimpleFlow { shared }

    /// The queue of dispatched actions.
    public nonisolated let pipeline = Pipeline()

    /// Asked before and told after each action, in this order.
    public var middlewares: [any Middleware] = []

    /// A dispatcher of its own (tests); actions use ``shared``.
    public init() {}
}
