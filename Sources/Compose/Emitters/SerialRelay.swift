import DequeModule
import KarcSynchronization

/// Hands values to one handler one at a time, in arrival order, whichever
/// tasks they arrive from: the operators that combine sources (`merge`,
/// `flatMap`) or deliver from timers (`debounce`) keep the root emitter's
/// promise that an observer never sees two values at once.
final class SerialRelay<Value: Sendable>: Sendable {
    private let handler: @Sendable (Value) -> Void
    private let state = Locked(State())

    init(_ handler: @escaping @Sendable (Value) -> Void) {
        self.handler = handler
    }

    func push(_ value: Value) {
        let claimed = state.withLock { state in
            if state.isDelivering {
                state.pending.append(value)
                return false
            }
            state.isDelivering = true
            return true
        }
        guard claimed else { return }
        var next = value
        while true {
            handler(next)
            let more = state.withLock { state -> Value? in
                if let more = state.pending.popFirst() { return more }
                state.isDelivering = false
                return nil
            }
            guard let more else { return }
            next = more
        }
    }

    private struct State {
        var pending: Deque<Value> = []
        var isDelivering = false
    }
}
