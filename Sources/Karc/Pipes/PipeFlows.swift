@_spi(KarcInternal) import KarcAsync
import KarcSynchronization
import Synchronization

enum PipeFlows {
    /// Makes the consumer's deliveries count as work in flight, when the model
    /// is mounted in a cluster and the source can count; the gauge to leave
    /// once per delivery the pipe is done with.
    static func count<I, O>(_ consumer: SourceConsumer<I, O>, _ context: PipeContext) -> ActivityGauge? {
        guard let gauge = context.activity, consumer.countDeliveries(into: gauge) else { return nil }
        return gauge
    }

    /// Takes the next delivery; `nil` when the source ended, was sealed, or the pipe was cancelled.
    static func next<I, O>(_ consumer: SourceConsumer<I, O>) async throws -> Delivery<I>? {
        try await next { try await consumer.next() }
    }

    /// Runs `take`; `nil` when the source ended, was sealed, or the pipe was cancelled.
    static func next<I>(_ take: () async throws -> Delivery<I>?) async throws -> Delivery<I>? {
        do {
            return try await take()
        } catch GateError.sealed, GateError.canceledConsumer, is CancellationError, is ModelError {
            return nil
        }
    }

    static func runDuplex<SI, SO, TI, TO, DI, DO>(
        consumer: SourceConsumer<SI, SO>,
        counted: ActivityGauge?,
        track: @escaping PipeTrack<TI, TO>,
        sink: PipeSink<TO, DI, DO>,
        failures: PipeFailurePolicy,
        context: PipeContext
    ) async throws {
        // A pipe that stopped must not look ready to its source.
        defer { consumer.detach() }
        /// Runs the track on one delivery: the answer for its producer, and the output to emit.
        // Nonsending: it runs where it is called (the pipe's task or an inline run), with no switch on
        // entry; a local function, not a closure value, so a call to it has no switch back after either.
        // A delivery that crossed from its producer's task brings the producer's trace.
        @Sendable nonisolated(nonsending) func answer(_ delivery: Delivery<SI>) async -> (Result<SO, any Error>, TO?) {
            nonisolated(nonsending) func run() async -> (Result<SO, any Error>, TO?) {
                do {
                    let input = try cast(delivery.input, to: TI.self)
                    let output = try await track(input, context)
                    return (.success(try cast(output, to: SO.self)), output)
                } catch {
                    return (.failure(error), nil)
                }
            }
            // An inline run's delivery carries no trace (it runs in its producer's task): a direct call.
            guard let carrier = delivery.context else { return await run() }
            return await carrier.run { await run() }
        }
        /// Applies the failure policy: why the pipe must stop after `result`, if it must.
        @Sendable func stop(after result: Result<SO, any Error>) -> (any Error)? {
            guard case .failure(let error) = result else { return nil }
            do {
                try failures.handle(error, context, answered: true)
                return nil
            } catch {
                return error
            }
        }
        /// Applies the failure policy; when the pipe must stop, its producer is answered first.
        @Sendable func settle(_ delivery: Delivery<SI>, _ result: Result<SO, any Error>) throws {
            guard let error = stop(after: result) else { return }
            consumer.reply(to: delivery, with: result)
            throw error
        }
        guard sink.send != nil else {
            // Nothing to emit, so nothing to keep in order after the answer: while
            // the pipe is idle, a producer runs the track in its own task (no
            // thread hand-off; see `SourceConsumer.answerInline`). The mount is
            // the pipe's, as it would be in the pipe's own task.
            let inline: InlineHandler<SI, SO> = { delivery in
                let (result, _) = await answer(delivery)
                counted?.leave()
                return (result: result, stop: stop(after: result))
            }
            if let mount = ModelMount.current {
                _ = consumer.answerInline { delivery in await ModelMount.$current.withValue(mount) { await inline(delivery) } }
            } else {
                _ = consumer.answerInline(with: inline)
            }
            // Answer and wait for the next command in one step.
            var delivery = try await next(consumer)
            while let current = delivery {
                let (result, _) = await answer(current)
                // Done with it once the track ran: the producer waiting for the answer is counted on its side.
                counted?.leave()
                try settle(current, result)
                delivery = try await next { try await consumer.replyAndNext(to: current, with: result) }
            }
            return
        }
        try await sink.run { emit in
            while let delivery = try await next(consumer) {
                defer { counted?.leave() }
                let (result, output) = await answer(delivery)
                try settle(delivery, result)
                consumer.reply(to: delivery, with: result)
                if let output { try await emit(output) }
            }
        }
    }

    static func runSimplex<SI, SO, TI, TO, DI, DO>(
        consumer: SourceConsumer<SI, SO>,
        counted: ActivityGauge?,
        intro: Pipe.Mode<SI, SO, TI, TO, DI, DO>.Intro?,
        track: @escaping PipeTrack<TI, TO>,
        sink: PipeSink<TO, DI, DO>,
        failures: PipeFailurePolicy,
        context: PipeContext
    ) async throws {
        defer { consumer.detach() }
        try await sink.run { emit in
            if let intro {
                // What an intro holds back (a timer's window, say) is not work in flight: done once taken.
                // What it lets through later belongs to the trace of the last value it took.
                let taken = KarcMutex<TraceCarrier?>(nil)
                let inputs = intro(
                    AsyncThrowingStream {
                        let delivery = try await next(consumer)
                        if let delivery {
                            counted?.leave()
                            taken.withLock { $0 = delivery.context }
                        }
                        return delivery?.input
                    })
                for try await input in inputs {
                    try await TraceCarrier.run(taken.withLock { $0 }) {
                        do {
                            try await emit(try await track(input, context))
                        } catch {
                            try failures.handle(error, context)
                        }
                    }
                }
                return
            }
            var delivery = try await next(consumer)
            while let current = delivery {
                do {
                    try await TraceCarrier.run(current.context) {
                        do {
                            let input = try cast(current.input, to: TI.self)
                            try await emit(try await track(input, context))
                        } catch {
                            try failures.handle(error, context)
                        }
                    }
                } catch {
                    counted?.leave()
                    throw error
                }
                // Done with it once the pipe waits again: a cluster that settled finds the pipe ready for
                // the next command (its producer was answered when it was taken: nothing else says so).
                delivery = try await next { try await consumer.next(leaving: counted) }
            }
        }
    }

    static func runPolicy(
        _ policy: Pipe.Policy,
        track: @escaping PipeTrack<Void, Void>,
        failures: PipeFailurePolicy,
        context: PipeContext
    ) async throws {
        var consecutiveFailures = 0
        // Each run is the root of a trace: nobody's send caused it.
        let origin = "timer \(context.traceName).\(context.pipeId)"
        restart: while true {
            var runs = 0
            while policy.allows(runs: runs) {
                try Task.checkCancellation()
                do {
                    try await TraceLink.child(of: nil, span: TraceLink.newSpanID(), origin: origin).whileCurrent {
                        try await track((), context)
                    }
                    consecutiveFailures = 0
                } catch {
                    try failures.handle(error, context)
                    // Recovering restarts the pipe: a `.finite` count starts over.
                    consecutiveFailures += 1
                    try await context.clock.sleep(for: PipeFailurePolicy.restartDelay(consecutiveFailures: consecutiveFailures))
                    continue restart
                }
                runs += 1
            }
            return
        }
    }
}

extension Pipe.Policy {
    func allows(runs: Int) -> Bool {
        switch self {
        case .finite(let count): return runs < count
        case .infinite: return true
        }
    }
}
