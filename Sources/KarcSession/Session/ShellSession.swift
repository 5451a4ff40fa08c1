import Foundation
import KarcAsync
import Synchronization

/// Runs lines of the command language against a cluster and prints what
/// happened. One session per shell; used from one task.
///
/// After each command it waits for the cluster to settle, then prints, in
/// this order: the reply (if any), each event (and redirect) in the order
/// it happened, and one diff per target whose state changed (the state
/// before the command against the state after it).
package final class ShellSession {
    let cluster: any ShellCluster
    /// Where `:source`, `:save`, `:export-test` and the pager reach files and the terminal.
    let host: any ShellHost
    let builder: CommandBuilder
    let renderer: Renderer
    var options: ShellOptions
    var showTiming = false
    var events = EventFilter.all
    /// Commands sent this session, with what became of them (`:history`), the last `--history-limit`.
    var history: BoundedLog<(line: String, outcome: String)>
    /// `:source` nesting, bounded so a script that sources itself stops.
    var sourceDepth = 0
    /// The lines run at the top level (`:save`, `--record`).
    var record: SessionRecord
    /// A send given up on failed when its outcome came: the run's status is 1.
    var failedLate = false
    /// At a prompt: `:source` echoes the commands it runs, as `--echo` does.
    var isInteractive = false
    /// The event types printed so far, by name (beside those the catalog declares).
    let seenEvents: SeenEvents
    /// Kept for `:export-test` and `export-test`: each send and event (the values, not the states).
    var keepsTestSteps = true
    private(set) var testSteps: BoundedLog<TestStep>
    /// Whether the note that the session dropped its oldest commands was printed.
    private var notedDropping = false

    /// Where a line came from, for error messages.
    struct Location {
        var script: String?
        var line: Int?
        /// The line itself, where a caret is drawn under it (at the prompt).
        var text: String?
    }

    enum Outcome: Equatable {
        case succeeded
        case failed
        /// Ctrl-C ended the command: a script stops, the prompt goes on.
        case interrupted
        case quit
    }

    /// Ctrl-C while a command runs (the prompt's editor or a script's signal handler triggers it).
    let interrupter: Interrupter
    /// Records taken and not printed yet (``RecordBacklog``).
    private let backlog: HeldRecords
    /// Sends given up on that answer later.
    let lateReplies = LateReplies()
    /// The clock every wait and timing reads, and the executor sends run on.
    let runtime: ShellRuntime

    init(
        cluster: any ShellCluster, options: ShellOptions, sink: OutputSink, host: any ShellHost = LocalHost(),
        interrupter: Interrupter = Interrupter(), seenEvents: SeenEvents = SeenEvents(), runtime: ShellRuntime = ShellRuntime()
    ) {
        self.cluster = cluster
        self.runtime = runtime
        self.seenEvents = seenEvents
        self.interrupter = interrupter
        self.host = host
        self.options = options
        backlog = HeldRecords(limit: cluster.recordBuffer)
        history = BoundedLog(limit: options.historyLimit)
        record = SessionRecord(limit: options.historyLimit)
        testSteps = BoundedLog(limit: options.historyLimit)
        builder = CommandBuilder(catalog: cluster.catalog)
        renderer = Renderer(mode: options.json ? .json : .readable, style: Style(isEnabled: options.colorResolved && !options.json), sink: sink)
        renderer.diffMode = options.diff
        renderer.jsonStates = options.jsonStates
    }

    /// Runs one line; prints its output (written out by ``OutputSink``'s rules:
    /// within ~10 ms, before the shell waits for input, and at the end).
    func execute(_ text: String, at location: Location) async -> Outcome {
        let outcome = await run(text, at: location)
        // Lines a `:source` runs are replayed by its own line.
        if sourceDepth == 0 { record.add(text, succeeded: outcome == .succeeded) }
        if !notedDropping, history.dropped + record.dropped + testSteps.dropped > 0 { noteDropping() }
        return outcome
    }

    /// Once, when the session first forgets its oldest commands: what that means.
    private func noteDropping() {
        notedDropping = true
        guard !options.quiet else { return }
        renderer.note(
            "this session keeps its last \(options.historyLimit) commands (--history-limit); older ones are dropped from :history and :save,"
                + " and :export-test can no longer write it (a test replays a session from its start)")
    }

    /// A command whose string, list or object never closed: it is not run,
    /// and fails where its delimiter opened (``CommandReader``).
    func refuse(_ unterminated: CommandReader.Unterminated, script: String?) -> Outcome {
        let text = unterminated.command.text
        if options.echo { renderer.echo(text) }
        if sourceDepth == 0 { record.add(text, succeeded: false) }
        // At the prompt (no script) the message names the line and column: a caret would fall under the last line typed.
        guard let script else { return fail(unterminated.message, column: nil, at: Location()) }
        return fail(
            unterminated.message, column: unterminated.column, at: Location(script: script, line: unterminated.line, text: unterminated.text))
    }

    private func run(_ text: String, at location: Location) async -> Outcome {
        defer { renderer.sink.flushIfDue() }
        if interrupter.isTriggered { return fail("interrupted", column: nil, at: location, outcome: .interrupted) }
        var location = location
        location.text = text
        // A transcript's expected output and masks are for `check`, not for the narration.
        if options.echo, !text.allSatisfy(\.isWhitespace), !Transcript.isCheckLine(text) { renderer.echo(text) }
        let line: ShellLine
        do {
            line = try LineParser.parse(text)
        } catch {
            return fail(error.message, column: error.column, at: location)
        }
        switch line {
        case .empty:
            return .succeeded
        case .meta(let name, let arguments):
            return await meta(name, arguments, at: location)
        case .command(let invocation):
            return await send(invocation, text: text, at: location)
        }
    }

    private func send(_ invocation: Invocation, text: String, at location: Location) async -> Outcome {
        let built: (target: TargetSchema, command: CommandSchema, value: any Sendable)
        do {
            built = try builder.build(invocation)
        } catch {
            history.append((text, "error"))
            return fail(error.message, column: error.column, at: location)
        }
        printRecords(takeRecords())  // what happened since the last command (timers, emitters)
        let firstStep = testSteps.total
        let name = "\(built.target.name).\(built.command.name)"
        let clock = runtime.clock
        let start = clock.now
        var outcome = Outcome.succeeded
        // A send given up on earlier may keep the cluster busy: not this command's
        // doing, so the settle waits only for the work this command adds.
        let baseline = lateReplies.outstanding > 0 ? cluster.workInFlight ?? 0 : 0
        // One alarm for the whole wait: if the send or the settle after it is
        // still going after a moment, what earlier commands printed goes out.
        let (sent, settled) = await renderer.sink.flushing {
            let sent = await send(built.value, to: built.target.name, command: name)
            switch sent {
            case .timedOut, .interrupted: return (sent, true)
            case .replied, .threw:
                // Settled already (the usual case): no waiting, so nothing to interrupt.
                if let inFlight = cluster.workInFlight, inFlight <= baseline { return (sent, true) }
                let remaining = options.timeout - (clock.now - start)
                guard let settled = await interruptible({ [cluster] in await cluster.settled(timeout: remaining, beyond: baseline) }) else {
                    return (SendOutcome.interrupted, true)
                }
                return (sent, settled)
            }
        }
        let elapsed = clock.now - start
        switch sent {
        case .replied(let reply?) where !(reply is Void):
            if let failure = ValueText.failure(in: reply) {
                outcome = fail("\(name) replied with a failure: \(failure)", column: invocation.command.column, at: location)
            } else {
                renderer.reply(target: built.target.name, reply)
            }
        case .replied:
            break
        case .threw(let error):
            printRecords(takeRecords())
            outcome = fail("\(name) failed: \(error)", column: invocation.command.column, at: location)
        case .timedOut:
            // Slow is not failed: the reply comes later, marked late; an error then counts.
            printRecords(takeRecords())
            renderer.notice(
                "\(name) has not answered after \(ShellDuration.describe(options.timeout)); its reply will be printed when it comes", command: name,
                script: location.script, line: location.line)
        case .interrupted:
            printRecords(takeRecords())
            outcome = fail("interrupted: \(name) goes on in the background", column: invocation.command.column, at: location, outcome: .interrupted)
        }
        if case .replied = sent { printRecords(takeRecords()) }
        if !settled {
            outcome = fail(
                "the cluster was still busy \(ShellDuration.describe(options.timeout)) after \(name) (raise --timeout, or use :wait for timers)",
                column: invocation.command.column, at: location)
        }
        if showTiming { renderer.timing(elapsed) }
        if keepsTestSteps {
            let origin = TestStep.Origin(script: location.script, line: location.line, text: text)
            let result: TestStep.Outcome
            switch sent {
            case .replied(let reply): result = .replied(reply)
            case .threw(let error): result = .threw("\(error)")
            case .timedOut, .interrupted: result = .unanswered
            }
            // Before the events this command set off, after those that came before it.
            testSteps.insert(.send(target: built.target.name, command: built.value, origin: origin, outcome: result), at: firstStep)
        }
        history.append((text, outcome == .succeeded ? "ok" : "error"))
        return outcome
    }

    /// At the end of a script: waits for the replies of sends given up on
    /// (up to ten times the timeout, at least a second; Ctrl-C stops it),
    /// and prints them. False when one of them failed.
    func finishLateReplies() async -> Bool {
        let clock = runtime.clock
        let start = clock.now
        let deadline = start + max(options.timeout * 10, .seconds(1))
        while lateReplies.outstanding > 0, clock.now < deadline, !interrupter.isTriggered {
            renderer.sink.flush()
            // Woken by a late reply, records (printed as they come), the deadline or Ctrl-C.
            printRecords(await nextRecords(until: deadline) { [lateReplies] wake in lateReplies.onArrival(wake) })
        }
        printRecords(takeRecords())
        for command in lateReplies.abandon() {
            _ = fail(
                "\(command) did not answer (waited \(ShellDuration.describe(clock.now - start)) after the script ended)", column: nil,
                at: Location())
            failedLate = true
        }
        return !failedLate
    }

    /// How a ``race(until:alsoWake:cancelling:late:_:)`` ended.
    enum Raced<T: Sendable>: Sendable {
        case finished(T)
        case deadline
        case interrupted
        /// What `alsoWake` registered the wake-up with called it.
        case woken
    }

    /// Runs `body` on the shell's executor and waits for the first of: its
    /// result, `deadline`, Ctrl-C, or the wake-up `alsoWake` registers. When
    /// it is not the result, `body` goes on in the background (cancelled,
    /// with `cancelling`), and its result goes to `late` when it comes.
    /// Every wait a command makes (a send, a settle, a script's next line,
    /// records) is one of these.
    func race<T: Sendable>(
        until deadline: ShellClock.Instant? = nil,
        alsoWake: ((@escaping @Sendable () -> Void) -> Void)? = nil,
        cancelling: Bool = false,
        interruptible: Bool = true,
        late: @escaping @Sendable (T) -> Void = { _ in },
        _ body: @escaping @Sendable () async -> T
    ) async -> Raced<T> {
        let result = Pending<Raced<T>>()
        let (clock, executor) = (runtime.clock, runtime.executor)
        let task = Task(executorPreference: executor) {
            let value = await body()
            if !result.finish(.finished(value)) { late(value) }
        }
        let end: @Sendable (Raced<T>) -> Void = { outcome in
            if result.finish(outcome), cancelling { task.cancel() }
        }
        let alarm = deadline.map { clock.arm(at: $0) { end(.deadline) } }
        alsoWake? { end(.woken) }
        let outcome =
            interruptible ? await interrupter.whileWaiting(onInterrupt: { end(.interrupted) }) { await result.value() } : await result.value()
        alarm.map(clock.disarm)
        // `result` is never finished with nil (a wait given up on); were it, the wait was let go.
        return outcome ?? .interrupted
    }

    /// `body`'s result, or nil when Ctrl-C came first (`body` then goes on in the background).
    func interruptible<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T? {
        if case .finished(let value) = await race(body) { return value }
        return nil
    }

    /// Sends, waiting at most `timeout` for the reply: a command that never
    /// answers must not hang a script. After a timeout (or Ctrl-C) the send
    /// goes on in the background, and its reply is printed, marked late,
    /// when it comes. The timeout is an alarm, not a sleeping task raced
    /// against the send: at thousands of commands a second, a timer each was
    /// a fifth of the cost.
    private func send(_ command: any Sendable, to target: String, command name: String) async -> SendOutcome {
        let (cluster, late) = (self.cluster, lateReplies)
        let token = late.token()
        let raced = await race(until: runtime.clock.now + options.timeout, late: { late.arrived(token, $0) }) { () -> SendOutcome in
            do {
                return .replied(try await cluster.send(command, to: target))
            } catch {
                return .threw(error)
            }
        }
        switch raced {
        case .finished(let outcome): return outcome
        case .deadline:
            late.gaveUp(token, command: name)
            return .timedOut
        case .interrupted, .woken:
            late.gaveUp(token, command: name)
            return .interrupted
        }
    }

    /// What happened since the last look: the records held (``RecordBacklog``) first, then the cluster's.
    func takeRecords() -> [ShellRecord] {
        backlog.take() + cluster.takeRecords()
    }

    /// Returns once the output has room (``OutputRoom``), taking the
    /// cluster's records into the backlog meanwhile; false when Ctrl-C
    /// ended the wait (`interruptible`: a script's, not the prompt's, whose
    /// Ctrl-C is a line of input).
    func waitForRoom(interruptible: Bool = true) async -> Bool {
        guard let room = renderer.sink.room, !room.hasRoom else { return true }
        let backlog = self.backlog
        while !room.hasRoom {
            if interruptible, interrupter.isTriggered { return false }
            let records = await nextRecords(until: nil, interruptible: interruptible) { wake in room.onRoom(wake) }
            backlog.append(records)
            if records.isEmpty, !room.hasRoom {
                // The cluster's records ended (it shut down) or Ctrl-C came: only room is left to wait for,
                // not records that return at once.
                if interruptible, interrupter.isTriggered { return false }
                _ = await race(interruptible: interruptible) {
                    await withCheckedContinuation { (roomCame: CheckedContinuation<Void, Never>) in room.onRoom { roomCame.resume() } }
                }
            }
        }
        return true
    }

    /// Waits until records come (pushed by the cluster), `deadline` passes,
    /// Ctrl-C, or whatever `alsoWake` registers the wake-up with calls it;
    /// returns what came (nothing for the others).
    func nextRecords(
        until deadline: ShellClock.Instant?, interruptible: Bool = true, alsoWake: ((@escaping @Sendable () -> Void) -> Void)? = nil
    ) async -> [ShellRecord] {
        let (cluster, backlog) = (self.cluster, self.backlog)
        // Records taken too late (something else woke the wait first) are kept for the next look, not lost.
        let raced = await race(until: deadline, alsoWake: alsoWake, cancelling: true, interruptible: interruptible, late: { backlog.append($0) }) {
            await cluster.nextRecords() ?? []
        }
        if case .finished(let records) = raced { return records }
        return []
    }

    /// Prints records: events, redirects and failures in order, then one diff per changed target.
    func printRecords(_ records: [ShellRecord]) {
        for late in lateReplies.take() {
            renderer.late(late)
            switch late.outcome {
            case .threw: failedLate = true
            case .replied(let reply?) where ValueText.failure(in: reply) != nil: failedLate = true
            default: break
            }
        }
        var changes = FoldedChanges()
        for record in records {
            switch record {
            case .stateChanged(let target, let old, let new):
                changes.add(target: target, old: old, new: new)
            case .event(let source, let event):
                if keepsTestSteps { testSteps.append(.event(source: source, event: event)) }
                let typeName = ValueText.typeName(event)
                seenEvents.insert(typeName)
                if events.shows(typeName) { renderer.record(record) }
            default:
                renderer.record(record)
            }
        }
        for change in changes.all {
            renderer.state(target: change.target, old: change.old, new: change.new)
        }
    }

    func fail(_ message: String, column: Int?, at location: Location, outcome: Outcome = .failed) -> Outcome {
        renderer.error(message, script: location.script, line: location.line, column: column, text: location.text)
        return outcome
    }
}
