import KarcAsync
import Synchronization

/// One `Sendable` value behind a mutex.
final class LockedValue<Value: Sendable>: Sendable {
    private let storage: KarcMutex<Value>

    init(_ value: Value) { storage = KarcMutex(value) }

    var value: Value { storage.withLock { $0 } }

    func set(_ value: Value) { storage.withLock { $0 = value } }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try storage.withLock { try body(&$0) }
    }
}

extension LockedValue {
    func take<Wrapped>() -> Value where Value == Wrapped? {
        storage.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
