import DequeModule
import KarcSynchronization
import Synchronization

/// The root emitter: `send(_:)` delivers a value to every observer.
///
/// **Order.** Observers get values one at a time, in send order, from
/// whichever task is delivering: a `send` made while a delivery is running
/// (from another task, or from inside an observer) queues its value and
/// returns, and the delivering task delivers it next. So an observer that
/// sends again never recurses, and no observer sees two values at once.
/// Each value goes to the observers registered when it was sent.
///
/// **Current value.** The emitter remembers the last value sent:
/// ``withCurrent()`` starts an observation with it, and `~+=` observes
/// `(new, old)` pairs.
public final class ValueEmitter<Value: Sendable>: Emitter {
    // Inline, not a `Locked` box: one pointer less on every send (15M → 20M values/s).
    private let state: KarcMutex<State>

    /// An emitter whose current value is `initial` (none by default).
    public init(_ initial: Value? = nil) {
        state = .init(State(last: initial))
    }

    /// The last value sent (or the initial one), if any.
    public var lastValue: Value? {
        state.withLock { $0.last }
    }

    /// Delivers `value` to every observer (see the type's note on order).
    public func send(_ value: Value) {
        if let delivery = post(value) { deliver(delivery) }
    }

    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
        register(withCurrent: false) { value, _ in handler(value) }
    }

    /// Observes `(new, old)` pairs: every value sent after a previous one, with that previous value.
    ///
    /// The seed's version never fires; here the first pair arrives with the
    /// second value (or the first, when the emitter has an initial value).
    public func subscribeChanges(_ handler: @escaping @Sendable (Value, Value) -> Void) -> Subscription {
        register(withCurrent: false) { value, previous in
            if let previous { handler(value, previous) }
        }
    }

    /// Observes `(new, old)` pairs: in a component's `observers`, while the
    /// component is active; elsewhere, for as long as the emitter lives.
    public static func ~+= (emitter: ValueEmitter, handler: @escaping @Sendable (Value, Value) -> Void) {
        emitter.keep(emitter.subscribeChanges(handler))
    }

    // MARK: - Delivery

    /// Records `value` as the current one and queues it for delivery; returns
    /// the delivery the caller must run when no one else is delivering.
    ///
    /// Split from `deliver` so that a caller holding its own lock (a state
    /// store) can fix the order of values under that lock and deliver after
    /// releasing it.
    func post(_ value: Value) -> Delivery? {
        state.withLock { state in
            let previous = state.last
            state.last = value
            let delivery = Delivery(value: value, previous: previous, observers: state.observers)
            if state.isDelivering {
                state.pending.append(delivery)
                return nil
            }
            state.isDelivering = true
            return delivery
        }
    }

    func deliver(_ first: Delivery) {
        var delivery = first
        while true {
            for observer in delivery.observers where observer.isActive.load(ordering: .acquiring) {
                observer.receive(delivery.value, delivery.previous)
            }
            let next = state.withLock { state -> Delivery? in
                if let next = state.pending.popFirst() { return next }
                state.isDelivering = false
                return nil
            }
            guard let next else { return }
            delivery = next
        }
    }

    /// Registers an observer; with `withCurrent`, its first delivery is the
    /// current value, ahead of any value sent after this call.
    func register(withCurrent: Bool, _ receive: @escaping @Sendable (Value, Value?) -> Void) -> Subscription {
        let (id, first) = state.withLock { state -> (UInt64, Delivery?) in
            let observer = Observer(id: state.nextID, receive: receive)
            state.nextID &+= 1
            state.observers.append(observer)
            guard withCurrent, let current = state.last else { return (observer.id, nil) }
            let delivery = Delivery(value: current, previous: nil, observers: [observer])
            if state.isDelivering {
                state.pending.append(delivery)
                return (observer.id, nil)
            }
            state.isDelivering = true
            return (observer.id, delivery)
        }
        if let first { deliver(first) }
        return Subscription { [weak self] in self?.unregister(id) }
    }

    private func unregister(_ id: UInt64) {
        state.withLock { state in
            guard let index = state.observers.firstIndex(where: { $0.id == id }) else { return }
            state.observers[index].isActive.store(false, ordering: .releasing)
            state.observers.remove(at: index)
        }
    }

    struct Delivery: Sendable {
        let value: Value
        let previous: Value?
        let observers: [Observer]
    }

    final class Observer: Sendable {
        let id: UInt64
        let receive: @Sendable (Value, Value?) -> Void
        /// Cleared on cancel, so a value queued before the cancel is not delivered after it.
        let isActive = Atomic<Bool>(true)

        init(id: UInt64, receive: @escaping @Sendable (Value, Value?) -> Void) {
            self.id = id
            self.receive = receive
        }
    }

    private struct State: Sendable {
        var last: Value?
        var observers: [Observer] = []
        var nextID: UInt64 = 0
        var pending: Deque<Delivery> = []
        var isDelivering = false
    }
}

/// An emitter that carries only the fact that it fired.
public typealias SignalEmitter = ValueEmitter<Void>

extension ValueEmitter where Value == Void {
    /// Fires the signal.
    public func send() {
        send(())
    }
}
