import Foundation
import KarcHistory
import KarcLanguage
import KarcOutput
import KarcRendering
import KarcTrace

/// The interpreter: runs lines of the command language against a cluster
/// and says what happened. One session per shell; used from one task.
///
/// After each command it waits for the cluster to settle, then prints, in
/// this order: the reply (if any), each event (and redirect) in the order
/// it happened, and one diff per target whose state changed (the state
/// before the command against the state after it).
///
/// The session parses, builds and sends; what it keeps and waits on are
/// parts of their own, each with its own state, and a meta command sees
/// them through a ``MetaContext``, not the session:
///
/// ```
///  line ──▶ LineParser ──▶ meta command (MetaCommands.all) ── MetaContext ───────┐
///                     └──▶ CommandBuilder (facts) ──▶ send, settle (waits) ──────┤
///                                                                                ▼
///  records (printArrived) ──▶ traces (TraceBook), states (changes, watches, ──▶ renderer ──▶ text, fronts
///                             snapshots), log (history, :save, test steps)
/// ```
package final class ShellSession {
    /// How the session waits (sends, settles, records, room, Ctrl-C, late replies), on its cluster.
    let waits: SessionWaits
    /// What the session learnt of its cluster when it started.
    let facts: ClusterFacts
    /// Where lines come from and where files and the pager go.
    var io: SessionIO
    /// What the session says: output events, to the text and the fronts.
    let renderer: Renderer
    var options: ShellOptions
    /// What the session keeps of what it ran and saw: commands, test steps, files written.
    var log: SessionLog
    /// The cluster's traces as far as this session saw them (`:trace`, `:seq`).
    var traces = TraceBook()
    /// What the session keeps of states: changes (`:blame`), watches, snapshots and undo points.
    var states: StateHistory

    /// The cluster the session drives.
    var cluster: any ShellCluster { waits.cluster }
    /// What the cluster can do beyond sending and observing (`:reset`, `:restore`, invariants), from its type.
    var capabilities: ShellClusterCapabilities { facts.capabilities }
    /// How a typed command becomes the cluster's value.
    var builder: CommandBuilder { facts.builder }
    /// How a trace names a send (`articles.load`).
    var names: CommandNames { facts.names }
    /// Where `:source`, `:save`, `:export-test` and the pager reach files and the terminal.
    var host: any ShellHost { io.host }

    /// Where a line came from, for error messages.
    package typealias Location = LineLocation

    /// How a command line ended.
    package typealias Outcome = CommandOutcome

    package init(
        cluster: any ShellCluster, options: ShellOptions, sink: OutputSink, host: any ShellHost = LocalHost(),
        interrupter: Interrupter = Interrupter(), words: PromptWords = PromptWords(), runtime: ShellRuntime = ShellRuntime()
    ) {
        facts = ClusterFacts(cluster)
        io = SessionIO(host: host)
        self.options = options
        waits = SessionWaits(cluster: cluster, runtime: runtime, interrupter: interrupter)
        log = SessionLog(limit: options.history.limit, words: words)
        states = StateHistory(limit: options.history.limit)
        renderer = Renderer(
            mode: options.printing.json ? .json : .readable, style: Style(isEnabled: options.printing.colorResolved && !options.printing.json),
            sink: sink)
        renderer.diffMode = options.printing.diff
        renderer.jsonStates = options.printing.jsonStates
        renderer.showsTraces = options.printing.trace
        if let columns = runtime.columns { renderer.terminalColumns = columns }
        // This renderer has seen no state yet: the next change of each target comes with its old one.
        cluster.sessionStarted()
    }

    /// Ctrl-C while a command runs.
    package var interrupter: Interrupter { waits.interrupter }

    /// Runs one line; prints its output (written out by ``OutputSink``'s rules:
    /// within ~10 ms, before the shell waits for input, and at the end).
    package func execute(_ text: String, at location: Location) async -> Outcome {
        let outcome = await run(text, at: location)
        // Lines a `:source` runs are replayed by its own line.
        if io.sourceDepth == 0 { log.record.add(text, succeeded: outcome == .succeeded) }
        if log.startsDropping(), !options.printing.quiet {
            renderer.note(
                "this session keeps its last \(Names.counted(options.history.limit, "command")) (--history-limit); older ones are dropped from :history and :save,"
                    + " and :export-test can no longer write it (a test replays a session from its start)")
        }
        return outcome
    }

    /// A command whose string, list or object never closed: it is not run,
    /// and fails where its delimiter opened (``CommandReader``).
    func refuse(_ unterminated: CommandReader.Unterminated, script: String?) -> Outcome {
        let text = unterminated.command.text
        if options.printing.echo { renderer.echo(text) }
        if io.sourceDepth == 0 { log.record.add(text, succeeded: false) }
        let seq = begin(text)
        defer { end(seq, .failed) }
        // At the prompt (no script) the message names the line and column: a caret would fall under the last line typed.
        guard let script else { return fail(unterminated.message, column: nil, at: Location()) }
        return fail(
            unterminated.message, column: unterminated.column, at: Location(script: script, line: unterminated.line, text: unterminated.text))
    }

    /// A command line starts: it is numbered in `:history`, and what it
    /// prints carries the number (`seq` in `--json`). Nests under `:source`.
    private func begin(_ text: String) -> Int {
        let seq = log.begin(text)
        renderer.begin(seq, text: text)
        renderer.sink.tap(seq)
        return seq
    }

    /// The command `seq` ended: `:history` keeps its outcome, and `--json` says so (`done`).
    private func end(_ seq: Int, _ outcome: Outcome) {
        traces.end(command: seq)
        let output = renderer.sink.untap(seq)
        log.end(seq, outcome, output: output)
        renderer.end(seq, outcome: HistoryEntry.name(outcome))
    }

    private func numbered(_ text: String, _ run: () async -> Outcome) async -> Outcome {
        let seq = begin(text)
        let outcome = await run()
        end(seq, outcome)
        return outcome
    }

    private func run(_ text: String, at location: Location) async -> Outcome {
        defer { renderer.sink.flushIfDue() }
        if interrupter.isTriggered { return fail("interrupted", column: nil, at: location, outcome: .interrupted) }
        var location = location
        location.text = text
        // A transcript's expected output and masks are for `check`, not for the narration.
        if options.printing.echo, !text.allSatisfy(\.isWhitespace), !CheckLine.isCheckLine(text) { renderer.echo(text) }
        let line: ShellLine
        do {
            line = try LineParser.parse(text, example: facts.example)
        } catch {
            return await numbered(text) { fail(error.message, column: error.column, at: location) }
        }
        switch line {
        case .empty:
            return .succeeded
        case .meta(let name, let arguments):
            // What happened since the last command is told first (a `:blame` or `:state` in a script sees it),
            // unless the command takes it itself (`:wait`'s event may be there).
            if MetaCommands.named(name.value)?.takesArrived != true { printArrived(background: true) }
            return await numbered(text) { await meta(name, arguments, at: location) }
        case .command(let invocation):
            printArrived(background: true)  // what happened since the last command (timers, emitters): not this one's
            return await numbered(text) { await send(invocation, text: text, at: location) }
        }
    }

    /// Returns once the output has room (``OutputRoom``); false when Ctrl-C ended the wait.
    func waitForRoom(interruptible: Bool = true) async -> Bool {
        guard let room = renderer.sink.room, !room.hasRoom else { return true }
        return await waits.waitFor(room, interruptible: interruptible)
    }

    func fail(_ message: String, column: Int?, at location: Location, outcome: Outcome = .failed) -> Outcome {
        renderer.error(message, script: location.script, line: location.line, column: column, text: location.text)
        return outcome
    }
}
