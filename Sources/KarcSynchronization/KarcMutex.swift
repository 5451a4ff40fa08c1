#if KARC_TSAN
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#else
import Synchronization
#endif

/// The one lock of karc's modules: `Synchronization.Mutex`, except in a
/// ThreadSanitizer build (`-Xswiftc -DKARC_TSAN`, `make tsan`), where it is
/// a pthread mutex TSan can see. On Linux, TSan does not see the futex a
/// `Mutex` is made of, so it reports what is done inside `withLock` as a
/// race: a build that TSan checks must lock with something it knows.
///
/// Hold it inline (`let state = KarcMutex(State())`); where escaping
/// closures share one, ``Locked`` boxes it.
#if KARC_TSAN
package final class KarcMutex<Value>: @unchecked Sendable {  // `value` is only touched inside `withLock`, under `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: sending Value) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#else
package typealias KarcMutex<Value> = Mutex<Value>
#endif
