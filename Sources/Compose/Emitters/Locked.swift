import Synchronization

/// A mutex in a class, so escaping closures (an operator's per-observation
/// state) can share it: `Mutex` itself cannot be captured, being `~Copyable`.
final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}
