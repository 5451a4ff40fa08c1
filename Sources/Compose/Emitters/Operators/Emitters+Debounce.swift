import KarcAsync
import KarcSynchronization

extension Emitters {
    /// Emits a value once `interval` has passed on `clock` without a newer one.
    ///
    /// The deadline is taken when the value is sent, so a test clock gives the
    /// same result however late the waiting task starts.
    public struct Debounce<Upstream: Emitter, C: Clock>: Emitter {
        let upstream: Upstream
        let interval: C.Duration
        let clock: C

        public func subscribe(_ handler: @escaping @Sendable (Upstream.Value) -> Void) -> Subscription {
            let relay = SerialRelay(handler)
            let state = Locked(State())
            let clock = clock
            let interval = interval
            let values = upstream.subscribe { value in
                let deadline = clock.now.advanced(by: interval)
                // Emitted later, from a timer: in the trace of the value it lets through.
                let carried = TraceCarrier.current
                state.withLock { current in
                    guard !current.isCancelled else { return }
                    current.generation &+= 1
                    let generation = current.generation
                    current.timer?.cancel()
                    current.timer = Task {
                        do {
                            // A deadline already reached must not sleep: a test clock
                            // parks a sleep until exactly `now` until it moves again.
                            if clock.now < deadline { try await clock.sleep(until: deadline, tolerance: nil) }
                        } catch {
                            return  // a newer value (or the end of the observation) cancelled this one
                        }
                        let isLatest = state.withLock { $0.generation == generation && !$0.isCancelled }
                        if isLatest { carried.run { relay.push(value) } }
                    }
                }
            }
            return Subscription {
                values.cancel()
                let timer = state.withLock { state in
                    state.isCancelled = true
                    defer { state.timer = nil }
                    return state.timer
                }
                timer?.cancel()
            }
        }

        private struct State: Sendable {
            var generation: UInt64 = 0
            var timer: Task<Void, Never>?
            var isCancelled = false
        }
    }
}

extension Emitter {
    /// Emits a value once `interval` has passed on `clock` with no newer value.
    public func debounce<C: Clock>(interval: C.Duration, clock: C) -> Emitters.Debounce<Self, C> {
        Emitters.Debounce(upstream: self, interval: interval, clock: clock)
    }

    /// Emits a value once `interval` has passed with no newer value (continuous clock).
    public func debounce(interval: Duration) -> Emitters.Debounce<Self, ContinuousClock> {
        debounce(interval: interval, clock: ContinuousClock())
    }
}
