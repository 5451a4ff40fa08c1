import Synchronization

/// What became of a command the shell sent.
enum SendOutcome: Sendable {
    case replied((any Sendable)?)
    case threw(any Error)
    case timedOut
}

/// A command that is out: the shell waits here for its outcome, the reply
/// or the timeout, whichever comes first.
final class PendingSend: Sendable {
    private struct State {
        var outcome: SendOutcome?
        var waiter: CheckedContinuation<SendOutcome, Never>?
    }

    private let state = Mutex(State())

    /// The first outcome wins (the reply, or the timeout); later ones are ignored.
    func finish(_ outcome: SendOutcome) {
        let waiter = state.withLock { s -> CheckedContinuation<SendOutcome, Never>? in
            guard s.outcome == nil else { return nil }
            s.outcome = outcome
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: outcome)
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
