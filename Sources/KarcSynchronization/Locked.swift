/// A ``KarcMutex`` in a class, for state that escaping closures share (an
/// operator's per-observation state, a task handle set once): a `Mutex`
/// is `~Copyable` and cannot be captured.
package final class Locked<Value>: Sendable {
    private let mutex: KarcMutex<Value>

    package init(_ value: sending Value) {
        mutex = KarcMutex(value)
    }

    package func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
}

extension Locked where Value: Sendable {
    /// The value now.
    package var value: Value { withLock { $0 } }

    /// Replaces the value.
    package func set(_ value: Value) { withLock { $0 = value } }

    /// The value, leaving nil in its place.
    package func take<Wrapped>() -> Value where Value == Wrapped? {
        withLock { value in
            defer { value = nil }
            return value
        }
    }
}
