import DequeModule
import KarcSynchronization
import Synchronization

/// A source where every attached receiver gets every value it accepts, in
/// publish order, buffered without bound.
///
/// Publishing never waits: a receiver that falls behind (or stops iterating
/// without being released) only grows its own buffer and never delays the
/// producer or the other receivers. Models publish their events here, so the
/// cost per event stays constant however many events pile up.
public final class EventGate<Event: Sendable>: Source, Drain, Sendable {
    /// An event.
    public typealias Input = Event
    /// Publishing answers nothing.
    public typealias Output = Void

    struct Subscriber {
        let spec: Spec<Event>
        /// Each event with its publisher's trace.
        var buffer: Deque<(event: Event, context: TraceCarrier?)> = []
        var waiter: UnsafeContinuation<Delivery<Event>?, any Error>?
        /// Counts each event as work in flight until the receiver is done with it.
        var gauge: ActivityGauge?
    }

    enum Step {
        case deliver(Delivery<Event>?)
        case wait
    }

    struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextToken: UInt64 = 1
        var isSealed = false
        /// Tests waiting for a number of receivers (``untilReceivers(_:)``), checked as one attaches or leaves.
        var watchers = StateWatchers()
    }

    /// Returns once `count` receivers are attached (at once if they are now).
    /// A test hook (``StateWatchers``): a test awaits a receiver's attaching
    /// instead of polling ``receiverCount``.
    func untilReceivers(_ count: Int) async {
        await StateWatchers.until({ $0.subscribers.count == count }, in: state, at: \.watchers)
    }

    /// Names the gate in logs.
    public let label: String
    private let state = KarcMutex(State())

    /// Creates an event gate; `label` names it in errors.
    public init(label: String? = nil) {
        self.label = label ?? "EventGate<\(Event.self)>"
    }

    public var isSealed: Bool { state.withLock { $0.isSealed } }

    /// Number of attached receivers.
    public var receiverCount: Int { state.withLock { $0.subscribers.count } }

    /// Hands `event` to every attached receiver that accepts it. Never suspends.
    /// Events published with no receiver attached are dropped, as on a broadcast.
    public func publish(_ event: Event) {
        state.withLock { s in
            guard !s.isSealed else { return }
            // Receivers handle the event in their own tasks, inside the publisher's trace
            // (read once, and only when a receiver takes the event).
            var context: TraceCarrier??
            var index = s.subscribers.values.startIndex
            while index != s.subscribers.values.endIndex {
                if s.subscribers.values[index].spec.isSatisfied(by: event) {
                    if context == nil { context = .some(TraceCarrier.ifAny) }
                    let context = context ?? nil
                    s.subscribers.values[index].gauge?.enter()
                    if let waiter = s.subscribers.values[index].waiter.take() {
                        waiter.resume(returning: Delivery(input: event, ticket: 0, context: context))
                    } else {
                        s.subscribers.values[index].buffer.append((event, context))
                    }
                }
                s.subscribers.values.formIndex(after: &index)
            }
        }
    }

    /// Publishes `event`; the answer is immediate.
    nonisolated(nonsending) public func send(producerId: UInt64, _ input: Event) async throws {
        publish(input)
    }

    /// Ends every receiver once it has taken what is buffered for it.
    public func seal() {
        state.withLock { s in
            s.isSealed = true
            var index = s.subscribers.values.startIndex
            while index != s.subscribers.values.endIndex {
                s.subscribers.values[index].waiter.take()?.resume(returning: nil)
                s.subscribers.values.formIndex(after: &index)
            }
        }
    }

    public func makeConsumer(consumerId: UInt64, spec: Spec<Event>, instantOutput: Void?) -> SourceConsumer<Event, Void> {
        let (token, watchers) = state.withLock { s -> (UInt64, [UnsafeContinuation<Void, Never>]) in
            let token = s.nextToken
            s.nextToken &+= 1
            s.subscribers[token] = Subscriber(spec: spec)
            return (token, StateWatchers.satisfied(in: &s, \.watchers))
        }
        for watcher in watchers { watcher.resume() }
        return SourceConsumer(
            next: { [self] in try await next(token) },
            reply: { _, _ in },
            replyAndNext: nil,
            detach: { [self] in
                let watchers = state.withLock { s -> [UnsafeContinuation<Void, Never>] in
                    guard let subscriber = s.subscribers.removeValue(forKey: token) else { return [] }
                    subscriber.gauge?.leave(subscriber.buffer.count)
                    subscriber.waiter?.resume(returning: nil)
                    return StateWatchers.satisfied(in: &s, \.watchers)
                }
                for watcher in watchers { watcher.resume() }
            },
            countDeliveries: { [self] gauge in
                state.withLock { s in
                    guard let subscriber = s.subscribers[token], subscriber.gauge == nil else { return }
                    s.subscribers[token]?.gauge = gauge
                    gauge.enter(subscriber.buffer.count)
                }
            }
        )
    }

    private func next(_ token: UInt64) async throws -> Delivery<Event>? {
        // Fast path: drain the buffer without suspending.
        let step = state.withLock { s -> Step in
            guard s.subscribers[token] != nil else { return .deliver(nil) }
            if let (event, context) = s.subscribers[token]?.buffer.popFirst() {
                return .deliver(Delivery(input: event, ticket: 0, context: context))
            }
            return s.isSealed ? .deliver(nil) : .wait
        }
        if case .deliver(let delivery) = step { return delivery }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                state.withLock { s in
                    guard s.subscribers[token] != nil else { return continuation.resume(returning: nil) }
                    if let (event, context) = s.subscribers[token]?.buffer.popFirst() {
                        return continuation.resume(returning: Delivery(input: event, ticket: 0, context: context))
                    }
                    if s.isSealed { return continuation.resume(returning: nil) }
                    if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                    s.subscribers[token]?.waiter = continuation
                }
            }
        } onCancel: {
            state.withLock { s in
                s.subscribers[token]?.waiter.take()?.resume(throwing: CancellationError())
            }
        }
    }
}
