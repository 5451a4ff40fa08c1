import Synchronization

/// What became of a command the shell sent.
enum SendOutcome: Sendable {
    case replied((any Sendable)?)
    case threw(any Error)
    case timedOut
}

/// A command that is out: the shell waits here for its outcome, and is
/// nudged once if it takes a while, to write what it has printed so far.
final class PendingSend: Sendable {
    enum Wake: Sendable {
        case slow
        case done(SendOutcome)
    }

    private struct State {
        var outcome: SendOutcome?
        var nudge = false
        var waiter: CheckedContinuation<Wake, Never>?
    }

    private let state = Mutex(State())

    /// The first outcome wins (the reply, or the timeout); later ones are ignored.
    func finish(_ outcome: SendOutcome) {
        let waiter = state.withLock { s -> CheckedContinuation<Wake, Never>? in
            guard s.outcome == nil else { return nil }
            s.outcome = outcome
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: .done(outcome))
    }

    func nudge() {
        let waiter = state.withLock { s -> CheckedContinuation<Wake, Never>? in
            guard s.outcome == nil else { return nil }
            guard let waiter = s.waiter else {
                s.nudge = true
                return nil
            }
            s.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .slow)
    }

    /// The outcome, or `.slow` once if a nudge came first.
    func next() async -> Wake {
        await withCheckedContinuation { continuation in
            let wake = state.withLock { s -> Wake? in
                if let outcome = s.outcome { return .done(outcome) }
                if s.nudge {
                    s.nudge = false
                    return .slow
                }
                s.waiter = continuation
                return nil
            }
            if let wake { continuation.resume(returning: wake) }
        }
    }
}
