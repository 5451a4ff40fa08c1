/// A dispatcher that decides how its actions are scheduled: on which actor,
/// with which synchronization. ``DispatchingAction``s go through
/// ``schedule(_:)``.
///
/// The default runs the action with ``Dispatcher/dispatch(_:)``: after every
/// action dispatched before it, on the dispatcher's own actor. ``SimpleFlow``
/// is one that is a global actor besides.
public protocol ActingDispatcher: Dispatcher {
    /// Runs `action` the way this dispatcher schedules actions, and returns when it has run.
    ///
    /// - Throws: the error the action threw.
    func schedule<A: Action>(_ action: A) async throws where A.Dispatcher == Self
}

extension ActingDispatcher {
    /// Dispatches `action` (after every action dispatched before it).
    public func schedule<A: Action>(_ action: A) async throws where A.Dispatcher == Self {
        try await dispatch(action)
    }
}
