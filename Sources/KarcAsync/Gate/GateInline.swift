import Synchronization

/// What a consumer that answers in its producer's task returns for one
/// delivery: the producer's answer, and, when the consumer must stop after
/// this delivery, why (its waiting `next` throws it instead of taking another
/// value). A tuple, so building one in a pipe's specialized code costs nothing.
package typealias InlineAnswer<Output: Sendable> = (result: Result<Output, any Error>, stop: (any Error)?)

/// Answers one delivery in the producer's task (see ``SourceConsumer/answerInline(with:)``).
///
/// `nonisolated(nonsending)`: it runs on the executor of the run that calls it
/// (the run is nonisolated already), so entering it costs no executor switch.
package typealias InlineHandler<Input: Sendable, Output: Sendable> = nonisolated(nonsending) @Sendable (Delivery<Input>) async -> InlineAnswer<Output>

/// A producer's claim on a consumer that answers in the producer's task.
struct InlineClaim<Input: Sendable, Output: Sendable> {
    let consumer: ConsumerRecord<Input, Output>
    /// Numbers the consumer's inline runs, so a late step of an old run never touches a newer one.
    let run: UInt64
    let handler: InlineHandler<Input, Output>
    let delivery: Delivery<Input>
}

// A consumer that sets an inline handler (a duplex pipe) and is parked waiting
// for its next value is answered in the producer's task instead of being woken:
// a round trip then costs no thread hand-off. The consumer stays busy (not
// ready) for the run and its parked `next` stays parked; everything that would
// wake it meanwhile (seal, cancellation, a broadcast value) waits until the run
// is over, so a consumer never runs two deliveries at once and never stops
// before the delivery it took is answered.
extension Gate {
    /// Sends `supply` to an idle inline consumer, when the first ready consumer
    /// that takes it is one; `nil` sends it the usual way (an `Output` that is
    /// itself optional comes back as `.some(nil)`).
    ///
    /// The run is a task of its own, started with `Task.immediate`: it runs on
    /// the producer's thread until it first suspends (a track that never
    /// suspends costs no hop at all), and the consumer's stop can cancel it
    /// apart from the producer. A cancelled producer cancels its run and waits
    /// for what the run answers, as it would for a child task.
    nonisolated(nonsending) func sendInline(_ supply: Supply<Input>) async throws -> Output? {
        guard let claim = changing({ claimInline(&$0, supply) }) else { return nil }
        let task = Task.immediate { [self] in
            let answer = await claim.handler(claim.delivery)
            // Ready again before the producer resumes, so its next send finds the consumer idle.
            finishInline(claim, stop: answer.stop)
            return answer.result
        }
        if claim.consumer.finishedRuns.load(ordering: .acquiring) >= claim.run {
            // Over already (the common case): its value is there, nothing to cancel.
            return try await task.value.get()
        }
        // The run suspended: let the consumer's stop, and this producer's cancellation, reach it.
        keepInlineTask(task, of: claim)
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }

    func claimInline(_ s: inout State, _ supply: Supply<Input>) -> InlineClaim<Input, Output>? {
        guard s.inlineConsumers > 0, s.sealError == nil, scheme.kind == .anycast || scheme.kind == .unicast,
            !Task.isCancelled, let index = firstReady(&s, supply)
        else { return nil }
        let consumer = s.readyQueue[index]
        // Only a consumer parked in `next` is idle; one between values takes the usual path.
        guard let handler = consumer.inline, consumer.waiter != nil, consumer.instantOutput == nil else { return nil }
        s.readyQueue.remove(at: index)
        consumer.isReady = false
        consumer.inlineRuns += 1
        consumer.inlineRun = consumer.inlineRuns
        consumer.gauge?.enter()
        return InlineClaim(
            consumer: consumer, run: consumer.inlineRuns, handler: handler,
            delivery: Delivery(input: supply.input, ticket: 0))
    }

    /// Keeps the task of a run that is still going, so stopping the consumer cancels it.
    func keepInlineTask(_ task: Task<Result<Output, any Error>, Never>, of claim: InlineClaim<Input, Output>) {
        locked { _, w in
            let consumer = claim.consumer
            guard consumer.inlineRun == claim.run else { return }
            if consumer.stopPending != nil { return w.add(.cancel(task)) }
            consumer.inlineTask = task
        }
    }

    /// Ends an inline run: the consumer stops if it must, takes what waited
    /// for it meanwhile, or is ready again.
    func finishInline(_ claim: InlineClaim<Input, Output>, stop: (any Error)?) {
        locked { s, w in
            let consumer = claim.consumer
            consumer.finishedRuns.store(claim.run, ordering: .releasing)
            guard consumer.inlineRun == claim.run else { return }
            consumer.inlineRun = nil
            consumer.inlineTask = nil
            guard consumer.isAttached else { return }
            if let stop = stop ?? consumer.stopPending ?? s.sealError {
                consumer.stopPending = nil
                consumer.isReady = false
                if let waiter = consumer.waiter.take() { w.add(.consumer(waiter, .failure(stop))) }
                return
            }
            if !consumer.inbox.isEmpty, let waiter = consumer.waiter.take(), let delivery = consumer.inbox.popFirst() {
                return w.add(.consumer(waiter, .success(delivery)))
            }
            becomeReady(&s, &w, consumer)
        }
    }

    func setInline(_ token: UInt64, _ handler: @escaping InlineHandler<Input, Output>) {
        state.withLock { s in
            guard let consumer = s.consumers[token], consumer.inline == nil else { return }
            consumer.inline = handler
            s.inlineConsumers += 1
        }
    }
}
