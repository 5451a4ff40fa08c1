import KarcAsync
import KarcRendering
import KarcTrace

/// One thing a session prints. The session says what happened as events;
/// a formatter (``ReadableFormatter``, ``JSONFormatter``) turns each into
/// text, and every other front (``SessionFront``) is told it too. A new kind
/// of output is a case here and a case in each formatter.
package enum OutputEvent {
    /// The command line `seq` starts, as typed: what follows, to its ``done(seq:outcome:)``, is its output.
    case begin(seq: Int, text: String)
    /// A command, echoed before its output (`--echo`, `:source` at a prompt).
    case echo(String)
    /// A command's reply.
    case reply(target: String, value: any Sendable)
    /// The reply of a send the shell gave up on (timed out, interrupted), now that it came.
    case lateReply(command: CommandOrigin, value: any Sendable)
    /// An event a target emitted; `late` names the earlier command that set
    /// it off (`#3 identity.login`) when it comes in another command's output or between commands,
    /// `by` who did when no command of this session did (`the app: clock.tick`, `another shell: …`).
    case event(source: String, value: any Sendable, late: String?, by: String? = nil)
    /// A middleware replaced an action (`to` empty: dropped it).
    case redirect(by: String, action: any Sendable, to: [any Sendable])
    /// A target's state changed (`:diff on`).
    case stateChange(StateChange)
    /// A target's state changed, counted (`:diff summary`).
    case stateSummary(target: String, state: any Sendable, counts: StateSummary.Counts, from: String?)
    /// A target's state, or a part of it, now (`:state`).
    case snapshot(Snapshot)
    /// A command failed.
    case error(String, at: SourceLocation)
    /// A command's reply was a `Result.failure`: an error, with the reply (its typed error) kept.
    case failedReply(String, at: SourceLocation, reply: any Sendable)
    /// A send has not answered within the timeout; it goes on.
    case notice(String, command: String, at: SourceLocation)
    /// Something the session tells about itself (it dropped its oldest commands).
    case note(String)
    /// Shell output that is not a cluster fact (help, lists, confirmations).
    case message(String)
    /// Something that went wrong outside a command (a late failure, a cluster's failure record).
    case problem(String)
    /// How long the command took (`:timing on`).
    case timing(Duration)
    /// A command that succeeded changed no state.
    case unchanged
    /// The command line `seq` ended (`ok`, `error`, `interrupted`): the last line of its output with `--json`.
    case done(seq: Int, outcome: String)
    /// A setting, changed or asked for (`:timing on`, `:diff`).
    case setting(Setting)
    /// What `:help` shows.
    case help(HelpPage)
    /// A command line in `:history`; with its output again (`:history N`) when `full`.
    case historyEntry(number: Int, HistoryEntry, full: Bool)
    /// A watched part changed (`:watch`).
    case watch(watch: String, PartChange)
    /// The watches (`:watch` without a path).
    case watches([String])
    /// The changes of a part, newest first (`:blame`).
    case blame(Blame)
    /// A command's causal trace as a tree (`:trace`), or the late part of one.
    case trace(TraceOutput)
    /// Commands' flows as a sequence diagram (`:seq`).
    case sequence(SequenceDiagram, commands: [(seq: Int, name: String)])
    /// A snapshot kept (`:snapshot NAME`, `:snapshot load`), or, when not `kept`, the snapshots (`:snapshots`).
    case snapshots([SnapshotInfo], kept: Bool)
    /// States put back (`:restore`, `:undo`).
    case restored(Restored)
    /// The cluster put back as it started (`:reset`).
    case reset(ResetDone)

    /// What `:trace` prints of one trace.
    package struct TraceOutput {
        /// The command that started it (`:history`'s number) and its name; nil for one no command of this session started.
        package let command: Int?
        package let name: String?
        package let trace: UInt64
        package let lines: [TraceTree.Line]
        /// Only the work that came after the command ended, printed as it comes.
        package let lateOnly: Bool

        package init(command: Int?, name: String?, trace: UInt64, lines: [TraceTree.Line], lateOnly: Bool) {
            self.command = command
            self.name = name
            self.trace = trace
            self.lines = lines
            self.lateOnly = lateOnly
        }
    }

    /// A setting of the session, as `:timing`, `:diff` and `:events` show it.
    package struct Setting {
        /// `timing`, `diff`, `events`.
        package let name: String
        /// `on`, `off`, `summary`, `only`, `mute`.
        package let value: String
        /// The event types `only` or `mute` name.
        package var types: [String] = []
        /// What it means, for people (`timing on: each command's time is printed after it`).
        package let text: String

        package init(name: String, value: String, types: [String] = [], text: String) {
            self.name = name
            self.value = value
            self.types = types
            self.text = text
        }
    }

    /// A change of one target's state, with its diff already made.
    package struct StateChange {
        package let target: String
        /// The state before, or the snapshot of it the session kept (``StateSnapshot``).
        package let old: Any
        package let new: any Sendable
        /// The diff of `old` against `new`, custom-dump style.
        package let difference: String
        /// What the diff learnt of each pair of arrays, for the JSON tree after it.
        package let prefixes: ComparedPrefixes
        /// Whether the change starts from the last state printed of the target (its JSON tree can be reused).
        package var fromLastPrinted = false
        /// Who made it when no command of this session did (`the app`, `another shell`).
        package var from: String?
    }

    /// A state shown whole: a target's, or the part at `path` of `owner`'s.
    package struct Snapshot {
        /// The heading: the target's name, and the path when a part is shown.
        package let heading: String
        package let value: Any
        package let path: String?
        package let owner: String?
    }

    /// Where a line came from: a script's line and column, or (neither
    /// script nor line) the prompt, where `text` is the line typed.
    package struct SourceLocation {
        package var script: String?
        package var line: Int?
        package var column: Int?
        package var text: String?

        package init(script: String? = nil, line: Int? = nil, column: Int? = nil, text: String? = nil) {
            (self.script, self.line, self.column, self.text) = (script, line, column, text)
        }
    }
}

/// Turns output events into text on a sink: a value the renderer calls
/// with each event and what it knows of where and for whom it is printed.
package protocol OutputFormatter {
    mutating func write(_ event: OutputEvent, in context: OutputContext, to sink: OutputSink)
    /// Forgets what earlier events left to build on (the last state printed
    /// per target), when changes stop being printed whole.
    mutating func forget()
}

/// What the renderer tells a formatter beside each event: the command and
/// span it belongs to, and where it is shown. Each formatter reads what its
/// form prints (`seq` and the span's ids in a JSON line; a caret under a
/// column at the prompt).
package struct OutputContext {
    /// The number of the command line being printed (``Renderer/seq``).
    package var seq: Int?
    /// The span of what is being printed, when it came from the cluster.
    package var link: TraceLink?
    /// At the prompt: the width of the prompt, so an error can point at its column with a caret.
    package var promptWidth: Int?
    /// At the prompt: the terminal's width now, so a caret finds its row in a line that wrapped.
    package var terminalColumns: @Sendable () -> Int? = { nil }
    /// `--json-states`: `state` lines carry the whole old and new states beside the patch.
    package var jsonStates = false

    package init(
        seq: Int? = nil, link: TraceLink? = nil, promptWidth: Int? = nil, terminalColumns: @escaping @Sendable () -> Int? = { nil },
        jsonStates: Bool = false
    ) {
        (self.seq, self.link, self.promptWidth, self.terminalColumns, self.jsonStates) = (seq, link, promptWidth, terminalColumns, jsonStates)
    }
}
