import DequeModule

// The gate's state machine. Every function here runs with the gate's mutex
// held; the continuations it wakes are collected in `Wakes` and resumed by
// `locked` after the mutex is released.
extension Gate {
    typealias State = GateState<Input, Output>
    typealias W = Wakes<Input, Output>

    func accepts(_ consumer: ConsumerRecord<Input, Output>, _ supply: Supply<Input>) -> Bool {
        if scheme.kind == .unicast && consumer.userId != supply.producerId { return false }
        return consumer.spec.isSatisfied(by: supply.input)
    }

    func matchingCount(_ s: borrowing State, _ supply: Supply<Input>) -> Int {
        s.consumers.values.reduce(0) { $0 + (accepts($1, supply) ? 1 : 0) }
    }

    func produce(_ s: inout State, _ w: inout W, _ supply: Supply<Input>, _ continuation: UnsafeContinuation<Output, any Error>) {
        if let error = s.sealError { return w.add(.producer(continuation, .failure(error))) }
        let inputType = dynamicType(of: supply.input)
        if Task.isCancelled {
            return w.add(.producer(continuation, .failure(GateError.canceledProducer(context(inputType: inputType)))))
        }
        s.producers[supply.ticket] = ProducerRecord(continuation: continuation, inputType: inputType)
        let targets: [UInt64]
        switch scheme.kind {
        case .anycast, .unicast:
            // The common case, kept free of allocations: one ready consumer.
            guard let token = takeFirstReady(&s, supply) else { return holdOrRefuse(&s, &w, supply) }
            s.producers[supply.ticket]?.pending = 1
            return deliver(&s, &w, supply, to: token)
        case .multicast:
            targets = takeAllReady(&s, supply)
        case .broadcast:
            let attached = s.consumers.filter { accepts($0.value, supply) }.keys.sorted()
            if mode.kind == .transient && !attached.contains(where: { s.consumers[$0]?.isReady == true }) {
                targets = []
            } else {
                targets = attached
                for token in attached where s.consumers[token]?.isReady == true { s.consumers[token]?.isReady = false }
            }
        }
        if targets.isEmpty { return holdOrRefuse(&s, &w, supply) }
        s.producers[supply.ticket]?.pending = targets.count
        for token in targets { deliver(&s, &w, supply, to: token) }
    }

    /// Removes and returns the first ready consumer that takes `supply`, without allocating.
    func takeFirstReady(_ s: inout State, _ supply: Supply<Input>) -> UInt64? {
        guard let index = firstReady(&s, supply) else { return nil }
        let consumer = s.readyQueue.remove(at: index)
        consumer.isReady = false
        return consumer.token
    }

    /// Where the first ready consumer that takes `supply` is in the ready queue;
    /// drops the stale entries it passes.
    func firstReady(_ s: inout State, _ supply: Supply<Input>) -> Int? {
        var index = s.readyQueue.startIndex
        while index < s.readyQueue.endIndex {
            let consumer = s.readyQueue[index]
            guard consumer.isAttached, consumer.isReady else {
                s.readyQueue.remove(at: index)
                continue
            }
            if accepts(consumer, supply) { return index }
            index += 1
        }
        return nil
    }

    /// Removes and returns every ready consumer that takes `supply`, in attach order.
    func takeAllReady(_ s: inout State, _ supply: Supply<Input>) -> [UInt64] {
        var found: [UInt64] = []
        while let token = takeFirstReady(&s, supply) { found.append(token) }
        return found.sorted()
    }

    /// No consumer is ready: queue the value or fail its producer, as the mode says.
    func holdOrRefuse(_ s: inout State, _ w: inout W, _ supply: Supply<Input>) {
        let matching = matchingCount(s, supply)
        let inputType = s.producers[supply.ticket]?.inputType ?? Input.self
        switch mode.kind {
        case .transient:
            let ctx = context(inputType: inputType, matching: matching)
            fail(&s, &w, ticket: supply.ticket, matching == 0 ? .noConsumer(ctx) : .noReadyConsumer(ctx))
            return
        case .retainable where matching == 0:
            fail(&s, &w, ticket: supply.ticket, .noConsumer(context(inputType: inputType)))
            return
        case .retainable, .cumulative:
            break
        }
        if let capacity, s.supplies.count >= capacity, let oldest = s.supplies.popFirst() {
            let oldType = s.producers[oldest.ticket]?.inputType ?? Input.self
            fail(&s, &w, ticket: oldest.ticket, .discardedProducer(context(inputType: oldType)))
        }
        s.supplies.append(supply)
    }

    /// Hands `supply` to a consumer that was just marked busy.
    func deliver(_ s: inout State, _ w: inout W, _ supply: Supply<Input>, to token: UInt64) {
        guard let consumer = s.consumers[token] else { return }
        var ticket = supply.ticket
        if let instant = consumer.instantOutput {
            record(&s, &w, ticket: ticket, from: token, .success(instant))
            ticket = 0
        }
        let delivery = Delivery(input: supply.input, ticket: ticket, context: supply.context)
        consumer.gauge?.enter()
        // A consumer busy with an inline run takes the value once the run is over.
        if consumer.inlineRun == nil, let waiter = consumer.waiter.take() {
            w.add(.consumer(waiter, .success(delivery)))
        } else {
            consumer.inbox.append(delivery)
        }
    }

    /// Records one consumer's answer; the producer resumes when all have answered or one failed.
    func record(_ s: inout State, _ w: inout W, ticket: UInt64, from consumer: UInt64, _ result: Result<Output, any Error>) {
        guard var producer = s.producers[ticket] else { return }
        switch result {
        case .failure(let error):
            s.producers[ticket] = nil
            w.add(.producer(producer.continuation, .failure(error)))
        case .success(let output):
            if producer.pending ?? 1 == 1 && producer.outputs.isEmpty {
                // A single answer: no combining, no allocation.
                s.producers[ticket] = nil
                return w.add(.producer(producer.continuation, .success(output)))
            }
            producer.outputs.append((consumer, output))
            let pending = (producer.pending ?? 1) - 1
            if pending > 0 {
                producer.pending = pending
                s.producers[ticket] = producer
                return
            }
            s.producers[ticket] = nil
            let outputs = producer.outputs.sorted { $0.consumer < $1.consumer }.map(\.output)
            if let combiner = scheme.combiner, outputs.count > 0 {
                w.add(.producer(producer.continuation, .success(combiner(outputs))))
            } else if let first = outputs.first {
                w.add(.producer(producer.continuation, .success(first)))
            }
        }
    }

    func fail(_ s: inout State, _ w: inout W, ticket: UInt64, _ error: GateError) {
        if let producer = s.producers.removeValue(forKey: ticket) {
            w.add(.producer(producer.continuation, .failure(error)))
        }
    }

    /// Marks a consumer ready, first handing it the oldest queued value it accepts.
    func becomeReady(_ s: inout State, _ w: inout W, _ token: UInt64) {
        guard let consumer = s.consumers[token] else { return }
        becomeReady(&s, &w, consumer)
    }

    func becomeReady(_ s: inout State, _ w: inout W, _ consumer: ConsumerRecord<Input, Output>) {
        guard consumer.isAttached, !consumer.isReady, consumer.inbox.isEmpty else { return }
        if let index = s.supplies.firstIndex(where: { accepts(consumer, $0) }) {
            let supply = s.supplies.remove(at: index)
            s.producers[supply.ticket]?.pending = 1
            deliver(&s, &w, supply, to: consumer.token)
            return
        }
        consumer.isReady = true
        s.readyQueue.append(consumer)
    }

    /// Runs `body` under the lock, then resumes what it woke.
    func locked<T>(_ body: (inout State, inout W) throws -> T) rethrows -> T {
        var wakes = W()
        let result = try changing { s in try body(&s, &wakes) }
        wakes.run()
        return result
    }

    func take(_ token: UInt64) async throws -> Delivery<Input>? {
        try await replyAndTake(token, ticket: 0, nil)
    }

    /// Records an answer (when `result` is set) and takes the next value for the
    /// consumer `token`, suspending until one comes. The producer's wake is held
    /// back until this consumer is waiting again (or has its next value), and
    /// so is the leave of `gauge`, when given: whoever waits for the gauge to
    /// empty finds the consumer ready (a shell that settled after a simplex
    /// command sends the next at once).
    func replyAndTake(
        _ token: UInt64, ticket: UInt64, _ result: Result<Output, any Error>?, leaving gauge: ActivityGauge? = nil
    ) async throws -> Delivery<Input>? {
        var held = W()
        // Fast path: a value is already waiting, no suspension.
        let immediate: Delivery<Input>?
        do {
            immediate = try locked { (s: inout State, w: inout W) throws -> Delivery<Input>? in
                if let result { record(&s, &held, ticket: ticket, from: token, result) }
                if let error = s.sealError { throw error }
                guard let consumer = s.consumers[token] else {
                    throw GateError.discardedConsumer(context(inputType: Input.self))
                }
                if let delivery = consumer.inbox.popFirst() { return delivery }
                becomeReady(&s, &w, token)
                return consumer.inbox.popFirst()
            }
        } catch {
            held.run()
            gauge?.leave()
            throw error
        }
        gauge?.leave()
        if let immediate {
            held.run()
            return immediate
        }
        let wakes = held
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                locked { s, w in
                    if let error = s.sealError { return w.add(.consumer(continuation, .failure(error))) }
                    guard let consumer = s.consumers[token] else {
                        return w.add(.consumer(continuation, .failure(GateError.discardedConsumer(context(inputType: Input.self)))))
                    }
                    if let delivery = consumer.inbox.popFirst() {
                        return w.add(.consumer(continuation, .success(delivery)))
                    }
                    if Task.isCancelled {
                        consumer.isReady = false
                        return w.add(.consumer(continuation, .failure(GateError.canceledConsumer(context(inputType: Input.self)))))
                    }
                    consumer.waiter = continuation
                }
                // Now that this consumer waits, the producer may send again.
                wakes.run()
            }
        } onCancel: {
            locked { s, w in
                guard let consumer = s.consumers[token] else { return }
                if consumer.inlineRun != nil {
                    // Stops once the delivery it is answering is answered; its run is cancelled
                    // now, or by its producer once it keeps the run's task.
                    consumer.stopPending = consumer.stopPending ?? GateError.canceledConsumer(context(inputType: Input.self))
                    if let task = consumer.inlineTask.take() { w.add(.cancel(task)) }
                    return
                }
                guard let waiter = consumer.waiter.take() else { return }
                consumer.isReady = false
                w.add(.consumer(waiter, .failure(GateError.canceledConsumer(context(inputType: Input.self)))))
            }
        }
    }

    func reply(from token: UInt64, ticket: UInt64, _ result: Result<Output, any Error>) {
        locked { s, w in
            record(&s, &w, ticket: ticket, from: token, result)
            // Ready again in the same critical section as the answer (see the type's documentation).
            becomeReady(&s, &w, token)
        }
    }

    func detach(_ token: UInt64) {
        locked { s, w in
            guard let consumer = s.consumers.removeValue(forKey: token) else { return }
            consumer.isAttached = false
            if consumer.inline != nil { s.inlineConsumers -= 1 }
            consumer.gauge?.leave(consumer.inbox.count)
            for delivery in consumer.inbox where delivery.ticket != 0 {
                let inputType = s.producers[delivery.ticket]?.inputType ?? Input.self
                fail(&s, &w, ticket: delivery.ticket, .discardedConsumer(context(inputType: inputType)))
            }
            if let waiter = consumer.waiter {
                w.add(.consumer(waiter, .failure(GateError.discardedConsumer(context(inputType: Input.self)))))
            }
            // A retainable gate holds values only for attached consumers; the rest must not wait forever.
            guard mode.kind == .retainable else { return }
            let orphans = s.supplies.filter { matchingCount(s, $0) == 0 }
            guard !orphans.isEmpty else { return }
            let orphanTickets = Set(orphans.map(\.ticket))
            s.supplies.removeAll { orphanTickets.contains($0.ticket) }
            for supply in orphans {
                let inputType = s.producers[supply.ticket]?.inputType ?? Input.self
                fail(&s, &w, ticket: supply.ticket, .noConsumer(context(inputType: inputType)))
            }
        }
    }

    func cancelProducer(_ ticket: UInt64, inputType: Any.Type) {
        locked { s, w in
            s.supplies.removeAll { $0.ticket == ticket }
            fail(&s, &w, ticket: ticket, .canceledProducer(context(inputType: inputType)))
        }
    }
}
