/// A ``Domain`` whose states reach it on the main actor, for UI code: its
/// observed properties are `@MainActor` and need no lock.
///
/// ```swift
/// @Observable @CheckedSendable
/// final class AccountDomain: Domain<DefaultId, AccountState, AccountCommand, AccountEvent>, MainActorObserver {
///     @MainActor private(set) var account: Account?
///     @MainActor func observe(state: AccountState) async { account = state.account }
/// }
/// ```
///
/// The model calls ``observe(state:)`` with its initial state when it is set
/// up and then with every new state, in order, on the main actor. A send
/// returns once the states it made have been observed, so after
/// `try await domain.send(…)` the main actor reads the new values; set-up
/// returns once the initial state has been. The plain
/// ``Domain/observe(state:)`` still runs too, inline, right after each
/// reduction.
///
/// `observe(state:)` may send commands to its own model (it is not waited
/// on by them); a long one delays every send to the model that changes its
/// state.
public protocol MainActorObserver<ObservedState>: AnyObject, Sendable {
    /// The model's state type.
    associatedtype ObservedState: Sendable

    /// Receives the initial state and then each new state, in order, on the main actor.
    @MainActor func observe(state: ObservedState) async
}
