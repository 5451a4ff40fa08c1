/// One change a ``Dispatcher`` knows how to make: the action carries its own
/// logic and runs it on the dispatcher it belongs to.
///
/// ```swift
/// extension CounterStore {
///     struct Increment: Action {
///         var value = 1
///         func execute(with store: isolated CounterStore) async {
///             store.count += value
///         }
///     }
/// }
/// ```
///
/// `execute` gets the dispatcher `isolated`, so it changes the dispatcher's
/// state directly; it may call ``Dispatcher/execute(_:)`` to compose actions.
/// Write it `async` even when it does not await: Swift 6.3's compiler
/// crashes on a synchronous witness of this requirement.
public protocol Action<Dispatcher>: Sendable {
    /// The dispatcher this action is dispatched on.
    associatedtype Dispatcher: AsyncDispatcher.Dispatcher
    /// Changes `dispatcher`; a thrown error fails the dispatch that ran it.
    func execute(with dispatcher: isolated Dispatcher) async throws
}
