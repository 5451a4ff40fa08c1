/// A value handed to a consumer, with what is needed to answer its producer.
public struct Delivery<Input: Sendable>: Sendable {
    /// The value delivered.
    public let input: Input
    /// Identifies the waiting producer; `0` when the producer was already
    /// answered (an instant output) and no reply is expected.
    public let ticket: UInt64
    /// The producer's trace and `ServiceContext` (``TraceCarrier``), when the value crossed to
    /// another task: the consumer handles the value inside it.
    package let context: TraceCarrier?

    /// A delivery of `input`; `ticket` pairs the reply with its producer.
    public init(input: Input, ticket: UInt64) {
        self.init(input: input, ticket: ticket, context: nil)
    }

    package init(input: Input, ticket: UInt64, context: TraceCarrier?) {
        self.input = input
        self.ticket = ticket
        self.context = context
    }
}

/// One attached consumer of a ``Source``: take a delivery, answer it, repeat.
///
/// The consumer stays attached until ``detach()`` is called or the handle is
/// released, so a loop that stops iterating never blocks anyone.
public final class SourceConsumer<Input: Sendable, Output: Sendable>: Sendable {
    private let take: @Sendable () async throws -> Delivery<Input>?
    private let answer: @Sendable (UInt64, Result<Output, any Error>) -> Void
    private let release: @Sendable () -> Void
    private let answerAndTake: (@Sendable (UInt64, Result<Output, any Error>) async throws -> Delivery<Input>?)?
    private let counter: (@Sendable (ActivityGauge) -> Void)?
    private let inline: (@Sendable (@escaping InlineHandler<Input, Output>) -> Void)?
    private let takeLeaving: (@Sendable (ActivityGauge) async throws -> Delivery<Input>?)?

    /// Builds a consumer from its three operations; a custom ``Source`` uses this.
    /// - Parameters:
    ///   - next: waits for the next delivery; `nil` when the source has ended.
    ///   - reply: answers the producer waiting on a ticket.
    ///   - detach: detaches the consumer; called once, at the latest on release.
    public init(
        next: @escaping @Sendable () async throws -> Delivery<Input>?,
        reply: @escaping @Sendable (UInt64, Result<Output, any Error>) -> Void,
        detach: @escaping @Sendable () -> Void
    ) {
        self.take = next
        self.answer = reply
        self.release = detach
        self.answerAndTake = nil
        self.counter = nil
        self.inline = nil
        self.takeLeaving = nil
    }

    /// Like ``init(next:reply:detach:)``, with a fused "answer, then wait for the
    /// next value" that a source can do in fewer steps than the two apart.
    public init(
        next: @escaping @Sendable () async throws -> Delivery<Input>?,
        reply: @escaping @Sendable (UInt64, Result<Output, any Error>) -> Void,
        replyAndNext: @escaping @Sendable (UInt64, Result<Output, any Error>) async throws -> Delivery<Input>?,
        detach: @escaping @Sendable () -> Void
    ) {
        self.take = next
        self.answer = reply
        self.release = detach
        self.answerAndTake = replyAndNext
        self.counter = nil
        self.inline = nil
        self.takeLeaving = nil
    }

    /// A consumer whose source can count its deliveries as work in flight
    /// (see ``countDeliveries(into:)``).
    package init(
        next: @escaping @Sendable () async throws -> Delivery<Input>?,
        reply: @escaping @Sendable (UInt64, Result<Output, any Error>) -> Void,
        replyAndNext: (@Sendable (UInt64, Result<Output, any Error>) async throws -> Delivery<Input>?)?,
        detach: @escaping @Sendable () -> Void,
        answerInline: (@Sendable (@escaping InlineHandler<Input, Output>) -> Void)? = nil,
        nextLeaving: (@Sendable (ActivityGauge) async throws -> Delivery<Input>?)? = nil,
        countDeliveries: @escaping @Sendable (ActivityGauge) -> Void
    ) {
        self.take = next
        self.answer = reply
        self.release = detach
        self.answerAndTake = replyAndNext
        self.counter = countDeliveries
        self.inline = answerInline
        self.takeLeaving = nextLeaving
    }

    /// From now on, while this consumer waits in ``next()`` (or
    /// ``replyAndNext(to:with:)``), a producer that picks it runs `handler` in
    /// its own task and is answered by it, instead of waking the consumer: no
    /// thread hand-off. Values that reach the consumer another way (queued
    /// ones, a broadcast) still come out of `next()`, and the consumer must
    /// answer those as `handler` would. Returns `false` when the source
    /// cannot do this.
    ///
    /// `handler` runs in a task started with `Task.immediate` in the
    /// producer's task: it inherits the producer's task-locals and priority,
    /// and it is cancelled when this consumer's waiting `next` is.
    package func answerInline(with handler: @escaping InlineHandler<Input, Output>) -> Bool {
        guard let inline else { return false }
        inline(handler)
        return true
    }

    /// From now on (and for what already waits for this consumer), each value
    /// handed to it enters `gauge`; the consumer leaves the gauge once per value
    /// when it is done with it. Returns `false`, counting nothing, when the
    /// source cannot count.
    package func countDeliveries(into gauge: ActivityGauge) -> Bool {
        guard let counter else { return false }
        counter(gauge)
        return true
    }

    deinit { release() }

    /// Waits for the next value; `nil` when the source has ended.
    public func next() async throws -> Delivery<Input>? { try await take() }

    /// Done with the value last taken, which `gauge` counts (``countDeliveries(into:)``):
    /// waits for the next value, leaving `gauge` once this consumer waits
    /// again where the source can (a ``Gate``), so whoever waits for the
    /// gauge to empty finds the consumer ready; elsewhere it leaves first.
    package func next(leaving gauge: ActivityGauge?) async throws -> Delivery<Input>? {
        guard let gauge else { return try await next() }
        if let takeLeaving { return try await takeLeaving(gauge) }
        gauge.leave()
        return try await next()
    }

    /// Answers the producer of `delivery` (nothing happens when it was answered already).
    public func reply(to delivery: Delivery<Input>, with result: Result<Output, any Error>) {
        if delivery.ticket != 0 { answer(delivery.ticket, result) }
    }

    /// Answers the producer of `delivery`, then waits for the next value, as
    /// `reply(to:with:)` followed by `next()`. A ``Gate`` wakes the producer only
    /// once this consumer waits again, so a producer that sends at once finds
    /// it ready instead of contending with it.
    public func replyAndNext(to delivery: Delivery<Input>, with result: Result<Output, any Error>) async throws -> Delivery<Input>? {
        if let answerAndTake { return try await answerAndTake(delivery.ticket, result) }
        reply(to: delivery, with: result)
        return try await next()
    }

    /// Detaches now; values not yet taken go back to their producers as errors.
    public func detach() { release() }
}

/// Something consumers take values from, answering each value's producer.
///
/// ``Gate`` and ``EventGate`` are sources; a pipe reads its inputs from one.
public protocol Source<Input, Output>: Sendable {
    /// What the source delivers.
    associatedtype Input: Sendable
    /// What answers each delivery.
    associatedtype Output: Sendable

    /// Whether the source has ended for good.
    var isSealed: Bool { get }

    /// Attaches a consumer that takes the values `spec` accepts.
    ///
    /// - Parameters:
    ///   - consumerId: pairs the consumer with producers on `unicast` gates.
    ///   - spec: which values the consumer takes.
    ///   - instantOutput: when set, each producer is answered with it as soon as
    ///     its value is taken (simplex); otherwise the consumer replies (duplex).
    func makeConsumer(consumerId: UInt64, spec: Spec<Input>, instantOutput: Output?) -> SourceConsumer<Input, Output>
}

extension Source {
    /// Consumes values as they come, answering each producer with what
    /// `operation` returns; the stream yields the same outputs.
    ///
    /// The consumer is attached for as long as the stream is referenced.
    public func processor(
        consumerId: UInt64 = GateIdentifier.next(),
        spec: Spec<Input> = .all,
        operation: @escaping @Sendable (Input) async throws -> Output
    ) -> AsyncThrowingStream<Output, any Error> {
        let consumer = makeConsumer(consumerId: consumerId, spec: spec, instantOutput: nil)
        return AsyncThrowingStream {
            guard let delivery = try await consumer.next() else { return nil }
            do {
                let output = try await operation(delivery.input)
                consumer.reply(to: delivery, with: .success(output))
                return output
            } catch {
                consumer.reply(to: delivery, with: .failure(error))
                throw error
            }
        }
    }

    /// Like ``processor(consumerId:spec:operation:)`` for the values of type `SubInput` only.
    public func processor<SubInput: Sendable>(
        consumerId: UInt64 = GateIdentifier.next(),
        operation: @escaping @Sendable (SubInput) async throws -> Output
    ) -> AsyncThrowingStream<Output, any Error> {
        processor(consumerId: consumerId, spec: .type(SubInput.self)) { input in
            try await operation(try cast(input, to: SubInput.self))
        }
    }

    /// Consumes values as they come, answering each producer at once with
    /// `instantOutput`; the stream yields the values.
    public func receiver(
        consumerId: UInt64 = GateIdentifier.next(),
        spec: Spec<Input> = .all,
        instantOutput: Output
    ) -> AsyncThrowingStream<Input, any Error> {
        let consumer = makeConsumer(consumerId: consumerId, spec: spec, instantOutput: instantOutput)
        return AsyncThrowingStream { try await consumer.next()?.input }
    }

    /// Like ``receiver(consumerId:spec:instantOutput:)`` for the values of type `SubInput` only.
    public func receiver<SubInput: Sendable>(
        consumerId: UInt64 = GateIdentifier.next(),
        instantOutput: Output
    ) -> AsyncThrowingStream<SubInput, any Error> {
        let consumer = makeConsumer(consumerId: consumerId, spec: .type(SubInput.self), instantOutput: instantOutput)
        return AsyncThrowingStream {
            guard let input = try await consumer.next()?.input else { return nil }
            return try cast(input, to: SubInput.self)
        }
    }

    /// Takes one value, answers its producer with what `operation` returns, and detaches.
    @discardableResult
    public func process(
        consumerId: UInt64 = GateIdentifier.next(),
        spec: Spec<Input> = .all,
        operation: @Sendable (Input) async throws -> Output
    ) async throws -> Output {
        let consumer = makeConsumer(consumerId: consumerId, spec: spec, instantOutput: nil)
        defer { consumer.detach() }
        guard let delivery = try await consumer.next() else { throw SourceEnded() }
        do {
            let output = try await operation(delivery.input)
            consumer.reply(to: delivery, with: .success(output))
            return output
        } catch {
            consumer.reply(to: delivery, with: .failure(error))
            throw error
        }
    }

    /// Takes one value, answers its producer with `instantOutput`, and detaches.
    @discardableResult
    public func receive(
        consumerId: UInt64 = GateIdentifier.next(),
        spec: Spec<Input> = .all,
        instantOutput: Output
    ) async throws -> Input {
        let consumer = makeConsumer(consumerId: consumerId, spec: spec, instantOutput: instantOutput)
        defer { consumer.detach() }
        guard let delivery = try await consumer.next() else { throw SourceEnded() }
        return delivery.input
    }

    /// Takes one value of type `SubInput`, answers its producer with `instantOutput`, and detaches.
    public func receive<SubInput: Sendable>(
        consumerId: UInt64 = GateIdentifier.next(),
        instantOutput: Output
    ) async throws -> SubInput {
        let input = try await receive(consumerId: consumerId, spec: .type(SubInput.self), instantOutput: instantOutput)
        return try cast(input, to: SubInput.self)
    }
}

extension Source where Output == Void {
    /// A stream of every value, answering producers at once.
    public func receiver(consumerId: UInt64 = GateIdentifier.next(), spec: Spec<Input> = .all) -> AsyncThrowingStream<Input, any Error> {
        receiver(consumerId: consumerId, spec: spec, instantOutput: ())
    }

    /// A stream of the values of type `SubInput`, answering producers at once.
    public func receiver<SubInput: Sendable>(consumerId: UInt64 = GateIdentifier.next()) -> AsyncThrowingStream<SubInput, any Error> {
        receiver(consumerId: consumerId, instantOutput: ())
    }

    /// Takes the next value.
    @discardableResult
    public func receive(consumerId: UInt64 = GateIdentifier.next(), spec: Spec<Input> = .all) async throws -> Input {
        try await receive(consumerId: consumerId, spec: spec, instantOutput: ())
    }

    /// Takes the next value of type `SubInput`.
    public func receive<SubInput: Sendable>(consumerId: UInt64 = GateIdentifier.next()) async throws -> SubInput {
        try await receive(consumerId: consumerId, instantOutput: ())
    }
}

/// A one-shot `process` or `receive` found the source already ended.
public struct SourceEnded: Error, CustomStringConvertible {
    public var description: String { "the source ended before a value arrived" }
}

/// A value did not have the type its consumer declared.
///
/// Consumers filter by type before they cast, so this signals a custom
/// ``Source`` that ignored the consumer's ``Spec``.
public struct TypeMismatch: Error, CustomStringConvertible {
    /// The type the consumer expected.
    public let expected: String
    /// The type it got.
    public let actual: String

    /// A mismatch between the `expected` type and the `actual` one.
    public init(expected: String, actual: String) {
        self.expected = expected
        self.actual = actual
    }

    public var description: String { "expected a value of type \(expected), got \(actual)" }
}

/// `value` as a `T`, or a ``TypeMismatch`` naming both types (a pipe's input, a gate's output).
package func cast<T>(_ value: Any, to: T.Type) throws -> T {
    guard let typed = value as? T else {
        throw TypeMismatch(expected: String(describing: T.self), actual: String(describing: type(of: value)))
    }
    return typed
}
