#if KARC_TSAN
import Foundation
#else
import Synchronization
#endif

/// A lock around a value, in a class so that escaping closures (an
/// operator's per-observation state) can share it: `Mutex` itself is
/// `~Copyable` and cannot be captured.
///
/// Every lock in Compose is one of these. ThreadSanitizer cannot see
/// `Synchronization.Mutex` on Linux (it reports accesses made inside
/// `withLock` as races), so a build with `-Xswiftc -DKARC_TSAN` uses a
/// pthread-based `NSLock` instead; `make tsan` runs the Compose tests so.
#if KARC_TSAN
final class Locked<Value>: @unchecked Sendable {  // `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#else
final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}
#endif
