import KarcSynchronization
import Synchronization

/// A value some task will give, waited for once; the first `finish` wins
/// (nil: given up on).
///
/// SPI, not `package`: a `package` generic is never specialized in the
/// module that calls it (Swift 6.3), and every wait of a shell's command
/// makes one; a public one is, with cross-module optimization (the release
/// build `make bench` makes), as long as its body names no `private` type
/// (`State` is internal for that).
@_spi(KarcInternal) public final class Pending<T: Sendable>: Sendable {
    struct State {
        var value: T??
        /// Unsafe, not checked: it is resumed once, by the `finish` that sets
        /// `value` (under the lock, which every later `finish` sees set), or
        /// by `value()` itself when the value came first. A checked one is a
        /// resilient generic type, its metadata looked up in the runtime's
        /// table on every use: a few percent of a piped command.
        var waiter: UnsafeContinuation<T?, Never>?
    }

    let state = KarcMutex(State())

    /// A value not given yet.
    public init() {}

    /// Gives `value` (nil: given up on) and resumes whoever waits for it;
    /// false when another value came first (this one is not taken).
    @discardableResult
    public func finish(_ value: T?) -> Bool {
        let (first, waiter) = state.withLock { s -> (Bool, UnsafeContinuation<T?, Never>?) in
            guard s.value == nil else { return (false, nil) }
            s.value = .some(value)
            defer { s.waiter = nil }
            return (true, s.waiter)
        }
        waiter?.resume(returning: value)
        return first
    }

    /// The value, when one came (nil also when it was given up on).
    public var finished: T? {
        state.withLock { $0.value ?? nil }
    }

    /// Waits for the value (nil when it was given up on); returns at once when it came.
    public func value() async -> T? {
        if let ready = state.withLock({ $0.value }) { return ready }
        return await withUnsafeContinuation { continuation in
            let ready = state.withLock { s -> T?? in
                if let value = s.value { return value }
                s.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
