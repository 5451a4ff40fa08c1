import Synchronization

/// What became of a command the shell sent.
enum SendOutcome: Sendable {
    case replied((any Sendable)?)
    case threw(any Error)
    case timedOut
    /// Ctrl-C: the shell stopped waiting.
    case interrupted
}

/// A command that is out: the shell waits here for its outcome, the reply
/// or the timeout, whichever comes first.
final class PendingSend: Sendable {
    private struct State {
        var outcome: SendOutcome?
        var waiter: CheckedContinuation<SendOutcome, Never>?
    }

    private let state = Mutex(State())

    /// The first outcome wins (the reply, the timeout or an interrupt); false for a later one.
    @discardableResult
    func finish(_ outcome: SendOutcome) -> Bool {
        let (first, waiter) = state.withLock { s -> (Bool, CheckedContinuation<SendOutcome, Never>?) in
            guard s.outcome == nil else { return (false, nil) }
            s.outcome = outcome
            defer { s.waiter = nil }
            return (true, s.waiter)
        }
        waiter?.resume(returning: outcome)
        return first
    }

    /// The outcome, once there is one.
    func outcome() async -> SendOutcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> SendOutcome? in
                if let outcome = s.outcome { return outcome }
                s.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// A value some task will give, waited for once; the first `finish` wins
/// (nil: given up on).
final class Pending<T: Sendable>: Sendable {
    private struct State {
        var value: T??
        var waiter: CheckedContinuation<T?, Never>?
    }

    private let state = Mutex(State())

    /// False when another value came first (this one is not taken).
    @discardableResult
    func finish(_ value: T?) -> Bool {
        let (first, waiter) = state.withLock { s -> (Bool, CheckedContinuation<T?, Never>?) in
            guard s.value == nil else { return (false, nil) }
            s.value = .some(value)
            defer { s.waiter = nil }
            return (true, s.waiter)
        }
        waiter?.resume(returning: value)
        return first
    }

    func value() async -> T? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> T?? in
                if let value = s.value { return value }
                s.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
