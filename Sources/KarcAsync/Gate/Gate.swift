import DequeModule
import KarcSynchronization
import Synchronization

/// An asynchronous meeting point of producers and consumers: a ``Drain`` you
/// send into and a ``Source`` consumers take from.
///
/// A producer's `send` returns the consumer's answer: at once for a receiver
/// (simplex, it answers with its instant output) or when a processor has
/// handled the value (duplex). The ``Mode`` says what happens to a value no
/// consumer is ready for; the ``Scheme`` says which consumers get it.
///
/// A consumer counts as ready from the moment it attaches and again as soon as
/// it replies, so a producer that sends right after its previous answer never
/// finds a lone duplex consumer busy.
///
/// ```
/// send(value) ──▶ GateState (one mutex): a ready consumer whose Spec accepts it?
///    │               ├─ yes: claim it ──▶ its inline handler runs in the sender's task,
///    │               │                    or its parked next() resumes with the value
///    │               └─ no: Mode decides: queue it (cumulative, retainable with a
///    │                      matching consumer; the oldest dropped past capacity) or fail
///    ▼                      (transient; GateError.noReadyConsumer)
/// the answer ◀── instant output (simplex) or the consumer's reply (duplex)
/// ```
///
/// ```swift
/// let gate = Gate<Int, String>(mode: .retainable, scheme: .anycast)
/// let squares = gate.processor { "\($0 * $0)" }
/// Task { for try await _ in squares {} }
/// let answer = try await gate.send(3) // "9"
/// ```
public final class Gate<Input: Sendable, Output: Sendable>: Drain, Source, Sendable {
    /// Whether values wait for a consumer, and how many.
    public let mode: Mode
    /// Which consumers get a value.
    public let scheme: Scheme
    /// Names the gate in errors, e.g. `commands of TestDomain`.
    public let label: String
    let capacity: Int?
    let tickets = Atomic<UInt64>(1)
    let state = KarcMutex(GateState<Input, Output>())

    /// Creates a gate.
    /// - Parameters:
    ///   - mode: whether values wait for a consumer (queued) or need one ready (transient).
    ///   - scheme: which consumers get a value: one (anycast, unicast), every ready one (multicast) or all (broadcast).
    ///   - capacity: most values that may wait for a consumer (the smaller of
    ///     this and the mode's capacity); when full, the oldest waiting producer
    ///     fails with ``GateError/discardedProducer(_:)``.
    ///   - label: names the gate in error messages.
    public init(mode: Mode, scheme: Scheme, capacity: Int? = nil, label: String? = nil) {
        self.mode = mode
        self.scheme = scheme
        let limits = [mode.capacity, capacity].compactMap { $0 }
        self.capacity = limits.min().map { max(1, $0) }
        self.label = label ?? "Gate<\(Input.self), \(Output.self)>"
    }

    /// The gate as a drain only, to hand to code that must not consume.
    public var toDrain: some Drain<Input, Output> { self }
    /// The gate as a source only, to hand to code that must not produce.
    public var toSource: some Source<Input, Output> { self }

    public var isSealed: Bool { state.withLock { $0.sealError != nil } }

    /// Number of attached consumers.
    public var consumerCount: Int { state.withLock { $0.consumers.count } }

    /// Number of values waiting for a consumer.
    public var queuedCount: Int { state.withLock { $0.supplies.count } }

    /// Seals the gate with ``GateError/sealed(_:)``: every waiting producer and
    /// consumer fails, and so does everything sent later.
    public func seal() {
        seal(GateError.sealed(context(inputType: Input.self)))
    }

    /// Seals the gate with `error`.
    public func seal(_ error: any Error) {
        locked { s, w in
            guard s.sealError == nil else { return }
            s.sealError = error
            for (_, producer) in s.producers { w.add(.producer(producer.continuation, .failure(error))) }
            s.producers.removeAll()
            for consumer in s.consumers.values {
                consumer.gauge?.leave(consumer.inbox.count)
                consumer.inbox.removeAll()
                // A consumer answering inline stops once that answer is given (see `finishInline`).
                if consumer.inlineRun == nil, let waiter = consumer.waiter.take() { w.add(.consumer(waiter, .failure(error))) }
            }
            s.supplies.removeAll()
            s.readyQueue.removeAll()
        }
    }

    @discardableResult
    nonisolated(nonsending) public func send(producerId: UInt64, _ input: Input) async throws -> Output {
        let ticket = tickets.wrappingAdd(1, ordering: .relaxed).oldValue
        if let output = try await sendInline(Supply(ticket: ticket, producerId: producerId, input: input)) { return output }
        // The value may be handled in another task: its trace goes with it.
        let context = TraceCarrier.ifAny
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                locked { s, w in
                    produce(&s, &w, Supply(ticket: ticket, producerId: producerId, input: input, context: context), continuation)
                }
            }
        } onCancel: {
            cancelProducer(ticket, inputType: dynamicType(of: input))
        }
    }

    public func makeConsumer(consumerId: UInt64, spec: Spec<Input>, instantOutput: Output?) -> SourceConsumer<Input, Output> {
        let token = locked { s, w -> UInt64 in
            let token = s.nextToken
            s.nextToken &+= 1
            guard s.sealError == nil else { return token }
            s.consumers[token] = ConsumerRecord(token: token, userId: consumerId, spec: spec, instantOutput: instantOutput)
            // Ready from the start: values sent before the consumer first asks wait in its inbox.
            becomeReady(&s, &w, token)
            return token
        }
        return SourceConsumer(
            next: { [self] in try await take(token) },
            reply: { [self] ticket, result in reply(from: token, ticket: ticket, result) },
            replyAndNext: { [self] ticket, result in try await replyAndTake(token, ticket: ticket, result) },
            detach: { [self] in detach(token) },
            answerInline: { [self] handler in setInline(token, handler) },
            nextLeaving: { [self] gauge in try await replyAndTake(token, ticket: 0, nil, leaving: gauge) },
            countDeliveries: { [self] gauge in
                state.withLock { s in
                    guard let consumer = s.consumers[token], consumer.gauge == nil else { return }
                    consumer.gauge = gauge
                    gauge.enter(consumer.inbox.count)
                }
            }
        )
    }

    func context(inputType: Any.Type, matching: Int = 0) -> GateError.Context {
        GateError.Context(gate: "\(label) (\(mode), \(scheme))", inputType: "\(inputType)", matchingConsumers: matching)
    }
}
