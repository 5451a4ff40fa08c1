import KarcAsync
import KarcLanguage
import KarcOutput
import KarcRendering
import KarcTestExport

extension ShellSession {
    /// Sends a typed command, waits for its reply and the settle after it
    /// (both within `--timeout`), and prints what happened: the reply or
    /// failure, the records it caused, and its time (`:timing on`).
    func send(_ invocation: Invocation, text: String, at location: Location) async -> Outcome {
        let built: (target: TargetSchema, command: CommandSchema, value: any Sendable)
        do {
            built = try builder.build(invocation)
        } catch {
            return fail(error.message, column: error.column, at: location)
        }
        let firstStep = log.nextStep
        let name = "\(built.target.name).\(built.command.name)"
        let clock = waits.runtime.clock
        let start = clock.now
        let command = LateReplies.Origin(name: name, text: text, seq: log.history.total, script: location.script, line: location.line)
        // The send is the root of a trace: everything it causes carries this id.
        let span = TraceLink.newSpanID()
        traces.begin(command: command.seq, trace: span, name: name)
        log.history.update(command.seq) { $0.reached(built.target.name) }
        let (sent, settled) = await sendAndSettle(built.value, to: built.target.name, span: span, command: command, from: start)
        let elapsed = clock.now - start
        var outcome = renderer.linked(TraceLink(trace: span, span: span, parent: nil)) {
            report(sent, of: name, target: built.target.name, column: invocation.command.column, at: location)
        }
        if !settled {
            outcome = fail(
                "the cluster was still busy \(ShellDuration.describe(options.timeout)) after \(name) (raise --timeout, or use :wait for timers)",
                column: invocation.command.column, at: location)
        }
        switch sent {
        case .replied, .threw:
            if let checking = capabilities.checking, checking.declaresInvariants {
                outcome = await checkInvariants(after: name, column: invocation.command.column, at: location) ?? outcome
            }
        case .timedOut, .interrupted: break
        }
        // Silence would leave a reader wondering whether the command did anything; a
        // checked transcript asserts it (a fact, so `--quiet` keeps it).
        if outcome == .succeeded, case .replied = sent, renderer.diffMode != .off, renderer.changesPrinted == 0 {
            renderer.unchanged()
        }
        renderer.timing(elapsed)
        if renderer.showsTraces { printTrace(ofCommand: command.seq) }
        let origin = TestStep.Origin(script: location.script, line: location.line, text: text)
        log.keep(.send(target: built.target.name, command: built.value, origin: origin, outcome: TestStep.Outcome(sent)), at: firstStep)
        return outcome
    }

    /// The send, then (when it answered) the settle of the work it started.
    /// One alarm for the whole wait: if the send or the settle after it is
    /// still going after a moment, what earlier commands printed goes out.
    private func sendAndSettle(
        _ command: any Sendable, to target: String, span: UInt64, command origin: LateReplies.Origin, from start: ShellClock.Instant
    ) async
        -> (
            SendOutcome, settled: Bool
        )
    {
        let (cluster, timeout, clock) = (self.cluster, options.timeout, waits.runtime.clock)
        // A send given up on earlier may keep the cluster busy: not this command's
        // doing, so the settle waits only for the work this command adds.
        let baseline = waits.lateReplies.outstanding > 0 ? cluster.workInFlight ?? 0 : 0
        return await renderer.sink.flushing {
            let sent = await waits.send(command, to: target, span: span, command: origin, timeout: timeout)
            switch sent {
            case .timedOut, .interrupted: return (sent, true)
            case .replied, .threw:
                // Settled already (the usual case): no waiting, so nothing to interrupt.
                if let inFlight = cluster.workInFlight, inFlight <= baseline { return (sent, true) }
                let remaining = timeout - (clock.now - start)
                guard let settled = await waits.interruptible({ await cluster.settled(timeout: remaining, beyond: baseline) }) else {
                    return (SendOutcome.interrupted, true)
                }
                return (sent, settled)
            }
        }
    }

    /// The invariants this command broke (held before it, not after): each
    /// an error naming the command; `.failed` when there was one. One that
    /// stays broken is not told again.
    private func checkInvariants(after name: String, column: Int, at location: Location) async -> Outcome? {
        let found = await capabilities.checking?.brokenInvariants() ?? []
        guard !found.isEmpty || !log.brokenInvariants.isEmpty else { return nil }  // the usual case: nothing to keep
        let broken = Set(found)
        defer { log.brokenInvariants = broken }
        let new = broken.subtracting(log.brokenInvariants).sorted()
        guard !new.isEmpty else { return nil }
        for invariant in new {
            _ = fail("invariant \(invariant) does not hold after \(name)", column: column, at: location)
        }
        return .failed
    }

    /// Prints how the send ended and the records it caused: a reply first,
    /// then the records; a failure after the records it left; its outcome.
    private func report(_ sent: SendOutcome, of name: String, target: String, column: Int, at location: Location) -> Outcome {
        if case .replied(let reply?) = sent, !(reply is Void) {
            if let failure = ValueText.failure(in: reply) {
                renderer.failedReply(
                    "\(name) replied with a failure: \(failure)", reply: reply, script: location.script, line: location.line, column: column,
                    text: location.text)
                printArrived()
                return .failed
            }
            renderer.reply(target: target, reply)
        }
        printArrived()
        switch sent {
        case .replied:
            return .succeeded
        case .threw(let error):
            return fail("\(name) failed: \(error)", column: column, at: location)
        case .timedOut:
            // Slow is not failed: the reply comes later, marked late; an error then counts.
            renderer.notice(
                "\(name) has not answered after \(ShellDuration.describe(options.timeout)); its reply will be printed when it comes", command: name,
                script: location.script, line: location.line)
            return .succeeded
        case .interrupted:
            return fail("interrupted: \(name) goes on in the background", column: column, at: location, outcome: .interrupted)
        }
    }
}

extension TestStep.Outcome {
    /// How a send ended, as a test asserts it.
    init(_ sent: SendOutcome) {
        switch sent {
        case .replied(let reply): self = .replied(reply)
        case .threw(let error): self = .threw("\(error)")
        case .timedOut, .interrupted: self = .unanswered
        }
    }
}
