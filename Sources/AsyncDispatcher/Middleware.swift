/// Sees every action a dispatcher executes (dispatched or executed directly)
/// and may veto it. Called on the dispatcher, in the order of its
/// `middlewares` array; every method has a default that does nothing.
public protocol Middleware: Sendable {
    /// Whether the action runs; the first middleware that answers `false`
    /// skips it (the later ones are not asked, and nothing else is called).
    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, shouldExecute action: Action) -> Bool
    /// Right before the action runs.
    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, willExecute action: Action)
    /// After the action ran without error.
    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, didExecute action: Action)
    /// After the action threw `error` (not in the original AsyncDispatcher, whose actions cannot throw).
    func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, didFail action: Action, error: any Error)
}

extension Middleware {
    public func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, shouldExecute action: Action) -> Bool { true }
    public func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, willExecute action: Action) {}
    public func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, didExecute action: Action) {}
    public func dispatcher<Dispatcher, Action>(_ dispatcher: Dispatcher, didFail action: Action, error: any Error) {}
}
