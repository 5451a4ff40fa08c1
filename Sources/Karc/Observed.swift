import KarcAsync
import KarcSynchronization

/// A domain property that ``Domain/observe(state:)`` writes and any task
/// reads: kept behind a lock, so reading it while commands run is not a
/// data race (a plain `var` is, whatever the model's serial calls promise).
///
/// ```swift
/// @CheckedSendable
/// final class CounterDomain: Domain<DefaultId, Counter, CounterCommand, CounterEvent> {
///     @Observed private(set) var counts: [Int] = []
///     override func observe(state: Counter) { $counts.modify { $0.append(state.count) } }
/// }
/// ```
///
/// Reading gives a copy of the value at that moment; `$property.modify`
/// changes it in one step under the lock.
@propertyWrapper
public final class Observed<Value: Sendable>: Sendable {
    private let storage: KarcMutex<Value>

    /// Keeps `wrappedValue` behind the lock.
    public init(wrappedValue: Value) {
        storage = KarcMutex(wrappedValue)
    }

    /// The value now; setting it replaces it under the lock.
    public var wrappedValue: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// The wrapper itself: `$property.modify { … }`.
    public var projectedValue: Observed<Value> { self }

    /// Changes the value in one step, under the lock; returns what `body` returns.
    @discardableResult
    public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock { value in try body(&value) }
    }
}
