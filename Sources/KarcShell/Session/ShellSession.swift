import Foundation
import KarcAsync

/// Runs lines of the command language against a cluster and prints what
/// happened. One session per shell; used from one task.
///
/// After each command it waits for the cluster to settle, then prints, in
/// this order: the reply (if any), each event (and redirect) in the order
/// it happened, and one diff per target whose state changed (the state
/// before the command against the state after it).
final class ShellSession {
    let cluster: any ShellCluster
    let builder: CommandBuilder
    let renderer: Renderer
    var options: ShellOptions
    var showTiming = false
    var events = EventFilter.all
    /// Commands sent this session, with what became of them (`:history`).
    var history: [(line: String, outcome: String)] = []
    /// `:source` nesting, bounded so a script that sources itself stops.
    var sourceDepth = 0
    /// At a prompt: `:source` echoes the commands it runs, as `--echo` does.
    var isInteractive = false
    /// The event types printed so far, by name (beside those the catalog declares).
    var seenEvents: Set<String> = []

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
        case quit
    }

    init(cluster: any ShellCluster, options: ShellOptions, sink: OutputSink) {
        self.cluster = cluster
        self.options = options
        builder = CommandBuilder(catalog: cluster.catalog)
        renderer = Renderer(mode: options.json ? .json : .readable, style: Style(isEnabled: options.color && !options.json), sink: sink)
    }

    /// Runs one line; prints its output (written out by ``OutputSink``'s rules:
    /// within ~10 ms, before the shell waits for input, and at the end).
    func execute(_ text: String, at location: Location) async -> Outcome {
        defer { renderer.sink.flushIfDue() }
        var location = location
        location.text = text
        if options.echo, !text.allSatisfy(\.isWhitespace) { renderer.echo(text) }
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
        printRecords(cluster.takeRecords())  // what happened since the last command (timers, emitters)
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = Outcome.succeeded
        var reply: (any Sendable)?
        var thrown: (any Error)?
        // One alarm for the whole wait: if the send or the settle after it is
        // still going after a moment, what earlier commands printed goes out.
        let (sent, settled) = await renderer.sink.flushing {
            let sent = await send(built.value, to: built.target.name)
            guard case .timedOut = sent else {
                return (sent, await cluster.settled(timeout: options.timeout - (clock.now - start)))
            }
            return (sent, false)
        }
        switch sent {
        case .replied(let value): reply = value
        case .threw(let error): thrown = error
        case .timedOut: break
        }
        let elapsed = clock.now - start
        if let reply, !(reply is Void) {
            if let failure = ValueText.failure(in: reply) {
                outcome = fail("\(built.target.name).\(built.command.name) replied with a failure: \(failure)", column: invocation.command.column, at: location)
            } else {
                renderer.reply(target: built.target.name, reply)
            }
        }
        printRecords(cluster.takeRecords())
        if let thrown {
            outcome = fail("\(built.target.name).\(built.command.name) failed: \(thrown)", column: invocation.command.column, at: location)
        }
        if !settled {
            outcome = fail("the cluster was still busy \(ShellDuration.describe(options.timeout)) after \(built.target.name).\(built.command.name) (raise --timeout, or use :wait for timers)", column: invocation.command.column, at: location)
        }
        if showTiming { renderer.timing(elapsed) }
        history.append((text, outcome == .succeeded ? "ok" : "error"))
        return outcome
    }

    /// Sends, waiting at most `timeout` for the reply: a command that never
    /// answers must not hang a script. After a timeout the send goes on in
    /// the background; what it does later is printed with the next command.
    /// The timeout is an alarm, not a sleeping task raced against the send:
    /// at thousands of commands a second, a timer each was a fifth of the cost.
    private func send(_ command: any Sendable, to target: String) async -> SendOutcome {
        let pending = PendingSend()
        let alarms = AlarmClock.shared
        let timeout = alarms.arm(at: .now + options.timeout) { pending.finish(.timedOut) }
        let cluster = self.cluster
        Task(executorPreference: ShellExecutor.shared) {
            let outcome: SendOutcome
            do {
                outcome = .replied(try await cluster.send(command, to: target))
            } catch {
                outcome = .threw(error)
            }
            alarms.disarm(timeout)
            pending.finish(outcome)
        }
        return await pending.outcome()
    }

    /// Prints records: events, redirects and failures in order, then one diff per changed target.
    func printRecords(_ records: [ShellRecord]) {
        var changes: [(target: String, old: any Sendable, new: any Sendable)] = []
        for record in records {
            switch record {
            case .stateChanged(let target, let old, let new):
                if let index = changes.firstIndex(where: { $0.target == target }) {
                    changes[index].new = new
                } else {
                    changes.append((target, old, new))
                }
            case .event(_, let event):
                let typeName = ValueText.typeName(event)
                seenEvents.insert(typeName)
                if events.shows(typeName) { renderer.record(record) }
            default:
                renderer.record(record)
            }
        }
        for change in changes {
            renderer.state(target: change.target, old: change.old, new: change.new)
        }
    }

    func fail(_ message: String, column: Int?, at location: Location) -> Outcome {
        renderer.error(message, script: location.script, line: location.line, column: column, text: location.text)
        return .failed
    }
}
