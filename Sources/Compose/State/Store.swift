import KarcSynchronization

/// Holds a state, and tells observers when it changes.
///
/// ```swift
/// struct LogIn {
///     @Store var state: State
///     init() { $state.willChange += { print("now", $0.email) } }
/// }
/// ```
///
/// `willChange` emits the new state after each change that makes it differ
/// (by `==`) from the old one, in the order the changes were made, also
/// when they come from several tasks. Assignments through the wrapped value
/// (`state.email = …`) read and write in two steps; use ``update(_:)`` for
/// a read-modify-write that no other task can interleave with.
///
/// The store is a class: copies of a struct holding `@Store` share it, as
/// components sharing a store do in the seed.
@propertyWrapper
public final class Store<State: AnyState>: Sendable {
    private let state: Locked<State>

    /// Emits the new state after each change.
    public let willChange = ValueEmitter<State>()

    /// Where ``persistence`` saves and restores the state.
    public let storage: any AnyPersistentStorage

    /// The state's `@Ref` and `@RefCollection` properties; nil when it has none.
    let references = ReferenceFields<State>.of

    /// A store starting from `wrappedValue`, or from what `storage` kept.
    public init(wrappedValue: State = State(), storage: any AnyPersistentStorage = EmptyPersistentStorage()) {
        state = Locked(wrappedValue)
        self.storage = storage
    }

    /// A store starting from what `storage` kept, or the initial state.
    public convenience init(storage: any AnyPersistentStorage) {
        self.init(wrappedValue: State(), storage: storage)
    }

    /// The state now; setting it stores it and notifies observers.
    public var wrappedValue: State {
        get { state.withLock { $0 } }
        set { update { $0 = newValue } }
    }

    /// The store itself: `$state.willChange`, `$state.persistence`, `$state.update { … }`.
    public var projectedValue: Store<State> { self }

    /// Changes the state in one step that no other change interleaves with.
    @discardableResult
    public func update<Result>(_ change: (inout State) throws -> Result) rethrows -> Result {
        let (result, delivery) = try state.withLock { state in
            let old = state
            let result = try change(&state)
            // Posting under the lock fixes the order of concurrent changes;
            // observers run after it is released, so they may read the store.
            return (result, old == state ? nil : willChange.post(state))
        }
        if let delivery { willChange.deliver(delivery) }
        return result
    }
}

extension Store: ReferencingStore {
    func referenceEntries() -> [ReferenceEntry] {
        guard let references else { return [] }
        return references.entries(in: wrappedValue)
    }

    func writeReference(_ value: any Sendable, for key: ReferenceKey) -> (@Sendable () -> Void)? {
        guard let references else { return nil }
        let emitter = willChange
        let delivery: ValueEmitter<State>.Delivery? = state.withLock { state in
            guard references.write(value, for: key, into: &state) else { return nil }
            return emitter.post(state)
        }
        guard let delivery else { return nil }
        return { emitter.deliver(delivery) }
    }
}
