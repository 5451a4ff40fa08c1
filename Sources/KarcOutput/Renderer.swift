import KarcAsync
import KarcLanguage
import KarcRendering
import KarcShellCluster
import KarcTrace

/// What a session says, as ``OutputEvent``s, written by its formatter —
/// readable, or JSON lines (`--json`, schema in `docs/shell.md`): the same
/// facts in both forms.
///
/// ```
///  ShellSession ── reply, records, errors ──▶ Renderer ── OutputEvent ──▶ ReadableFormatter ─┐
///                                              (diff or summary           JSONFormatter ─────┴─▶ OutputSink
///                                               of a change, per :diff)
/// ```
package final class Renderer {
    package enum Mode { case readable, json }

    package let sink: OutputSink
    /// The readable or the JSON formatter, called with each event and ``context``.
    private var formatter: any OutputFormatter
    /// What the formatter is told beside each event: the command and span printing, where the output is shown.
    private var context = OutputContext()

    package init(mode: Mode, style: Style, sink: OutputSink) {
        self.sink = sink
        formatter = mode == .json ? JSONFormatter() : ReadableFormatter(style: style)
    }

    /// The fronts told each event beside the text (``SessionFront``), in the order they subscribed.
    private var fronts = Fronts()

    /// The fronts subscribed, and the last subscription's number (never given twice).
    private struct Fronts {
        var all: [(subscription: FrontSubscription, front: any SessionFront)] = []
        var last = 0
    }

    package func emit(_ event: OutputEvent) {
        formatter.write(event, in: context, to: sink)
        if !fronts.all.isEmpty { tellFronts(event) }
    }

    private func tellFronts(_ event: OutputEvent) {
        for each in fronts.all { each.front.receive(event, in: context) }
    }

    /// From now on `front` is told every event, after the text is written.
    /// A front that comes while commands run (`:inspect` starts one) is told
    /// they began, so each has its line before its output and its end.
    package func subscribe(_ front: any SessionFront) -> FrontSubscription {
        fronts.last += 1
        let subscription = FrontSubscription(id: fronts.last)
        fronts.all.append((subscription, front))
        var told = context
        for line in commands.begun {
            told.seq = line.seq
            front.receive(.begin(seq: line.seq, text: line.text), in: told)
        }
        return subscription
    }

    /// `subscription`'s front is told nothing more.
    package func unsubscribe(_ subscription: FrontSubscription) {
        fronts.all.removeAll { $0.subscription == subscription }
    }

    /// At the prompt: the width of the prompt, so an error can point at its column with a caret.
    package var promptWidth: Int? {
        get { context.promptWidth }
        set { context.promptWidth = newValue }
    }

    /// At the prompt: the terminal's width now, so a caret finds its row in a line that wrapped.
    package var terminalColumns: @Sendable () -> Int? {
        get { context.terminalColumns }
        set { context.terminalColumns = newValue }
    }

    /// `--json-states`: `state` lines carry the whole old and new states beside the patch.
    package var jsonStates: Bool {
        get { context.jsonStates }
        set { context.jsonStates = newValue }
    }

    /// How changes of state are printed (`:diff on|off|summary`).
    /// What the session's settings ask of the output (`:diff`, `:events`, `:timing`, `:trace on`).
    private var settings = Settings()

    /// The output's settings, as `:diff`, `:events`, `:timing` and `:trace` set them.
    private struct Settings {
        var diffMode = DiffMode.full
        var events = EventFilter.all
        var showsTiming = false
        var showsTraces = false
        var scriptName: @Sendable (String) -> String = { $0 }
    }

    /// How changes of state are printed (`:diff on|off|summary`).
    package var diffMode: DiffMode {
        get { settings.diffMode }
        set {
            settings.diffMode = newValue
            if newValue != .full { formatter.forget() }
        }
    }

    /// Which events are printed (`:events`).
    package var events: EventFilter {
        get { settings.events }
        set { settings.events = newValue }
    }

    /// Whether each command's time is printed (`:timing`).
    package var showsTiming: Bool {
        get { settings.showsTiming }
        set { settings.showsTiming = newValue }
    }

    /// How a script is named in locations: as given, or (`karc check`) relative to the checked script.
    package var scriptName: @Sendable (String) -> String {
        get { settings.scriptName }
        set { settings.scriptName = newValue }
    }

    package func echo(_ line: String) { emit(.echo(line)) }

    package func reply(target: String, _ value: any Sendable) { emit(.reply(target: target, value: value)) }

    // MARK: Commands

    /// The command lines begun and running.
    private struct Commands {
        /// The command lines running, the innermost (a `:source`'s, or the
        /// command a late reply is printed for) last: what is printed belongs
        /// to the innermost (`seq` in `--json`).
        var running: [Int] = []
        /// The command lines begun and not ended, as typed, the innermost last.
        var begun: [(seq: Int, text: String)] = []
    }

    private var commands = Commands() {
        didSet { context.seq = commands.running.last }
    }

    /// The number of the command line whose output is being printed, if any.
    package var seq: Int? { commands.running.last }

    /// How many changes of state the running command printed.
    package private(set) var changesPrinted = 0

    /// The command line `seq` starts, as typed (`text`): what follows is its output.
    package func begin(_ seq: Int, text: String) {
        commands.running.append(seq)
        commands.begun.append((seq, text))
        changesPrinted = 0
        // The text prints nothing for it (an echo is an event of its own): only the fronts are told, so a piped script does not pay for it.
        if !fronts.all.isEmpty { tellFronts(.begin(seq: seq, text: text)) }
    }

    /// The command line `seq` ended so (`ok`, `error`, `interrupted`): with
    /// `--json` a `done` line says so, the last of its output.
    package func end(_ seq: Int, outcome: String) {
        emit(.done(seq: seq, outcome: outcome))
        if commands.running.last == seq { commands.running.removeLast() }
        if commands.begun.last?.seq == seq { commands.begun.removeLast() }
    }

    /// Prints, in `body`, output that belongs to the command line `seq` (a late reply); nil: the running command's.
    package func printing<T>(for seq: Int?, _ body: () -> T) -> T {
        guard let seq else { return body() }
        commands.running.append(seq)
        defer { commands.running.removeLast() }
        return body()
    }

    /// Prints, in `body` and when `apart`, output no command of this session
    /// made though one runs (another shell's change meanwhile): no `seq` with
    /// `--json`, and not counted as the running command's changes.
    package func apart<T>(if apart: Bool, _ body: () -> T) -> T {
        guard apart else { return body() }
        let (seq, printed) = (context.seq, changesPrinted)
        context.seq = nil
        defer { (context.seq, changesPrinted) = (seq, printed) }
        return body()
    }

    /// A command that succeeded and changed no state (`ok (no changes)`).
    package func unchanged() { emit(.unchanged) }

    /// A setting shown or changed (`:timing on`, `:diff`).
    package func setting(_ setting: OutputEvent.Setting) { emit(.setting(setting)) }

    /// An event emitted by `source`, unless `:events` hides its type (`typeName`, worked out once by the caller).
    /// An event; `late` names the earlier command whose work it is, when it is not the running command's.
    package func event(_ event: any Sendable, from source: String, typeName: String, late: String? = nil, by: String? = nil) {
        if events.shows(typeName) { emit(.event(source: source, value: event, late: late, by: by)) }
    }

    package func record(_ record: ShellRecord) {
        linked(record.link) {
            switch record.kind {
            case .event(let source, let event): self.event(event, from: source, typeName: ValueText.typeName(event))
            case .stateChanged(let target, let old, let new): _ = state(target: target, old: old, new: new)
            case .stateReported(let target, let state): _ = self.state(target: target, old: nil, new: state)
            case .redirected(let by, let action, let to): emit(.redirect(by: by, action: action, to: to))
            case .failed(let error): emit(.problem("failed: \(error)"))
            case .lost(let count): emit(.message("\(Names.counted(count, "record")) lost: the shell fell behind the cluster"))
            case .sent, .replied, .handled, .sendFailed: break  // traced, not printed
            }
        }
    }

    /// Prints, in `body`, output about what the span `link` did: with `--json`, its lines say so.
    package func linked<T>(_ link: TraceLink?, _ body: () -> T) -> T {
        let outer = context.link
        context.link = link
        defer { context.link = outer }
        return body()
    }

    /// Whether each command's trace is printed after it (`:trace on`, `--trace`).
    package var showsTraces: Bool {
        get { settings.showsTraces }
        set { settings.showsTraces = newValue }
    }

    /// A trace, or the late part of one (`:trace`).
    package func trace(_ output: OutputEvent.TraceOutput) { emit(.trace(output)) }

    /// Commands' flows as a sequence diagram (`:seq`).
    package func sequence(_ diagram: SequenceDiagram, commands: [(seq: Int, name: String)]) { emit(.sequence(diagram, commands: commands)) }

    /// A change of state, as `:diff` says: a diff, a count, or nothing; nothing too when it changed and changed back.
    ///
    /// The change is told from `old`, the state before it, through the
    /// snapshot of the last state this session printed of the target
    /// (``StateSnapshot``) when the two agree, as they do unless records
    /// were lost. `old` is nil when the cluster kept none: the change is
    /// told from that snapshot. A target first seen without an old state is
    /// only remembered.
    /// True when it printed the change (a diff or a count).
    @discardableResult
    package func state(target: String, old: (any Sendable)?, new: any Sendable, from cause: String? = nil) -> StateTold {
        let last = printed[target]
        let base: Any
        let fromLast: Bool
        if let old, last.map({ !Unchanged.check($0, old) }) ?? true {
            // Diffed as a snapshot, so the diff learns each long array's bounds for the JSON tree and the next snapshot.
            (base, fromLast) = (StateSnapshot.take(old), false)
        } else if let last {
            (base, fromLast) = (last, true)
        } else {
            printed[target] = StateSnapshot.take(new)
            return StateTold(parts: nil, printed: false)
        }
        // One memory of the arrays compared, for the diff, the JSON tree, the parts changed and the next snapshot.
        let prefixes = ComparedPrefixes()
        defer { printed[target] = StateSnapshot.take(new, reusing: base, prefixes: prefixes) }
        switch diffMode {
        case .off:
            return StateTold(parts: StateChanges.between(base, new, prefixes: prefixes), printed: false, old: base)
        case .summary:
            let counts = StateSummary.count(base, new)
            guard counts.changed > 0 else { return StateTold(parts: nil, printed: false) }
            changesPrinted += 1
            emit(.stateSummary(target: target, state: new, counts: counts, from: cause))
            return StateTold(parts: StateChanges.between(base, new, prefixes: prefixes), printed: true, old: base)
        case .full:
            guard let difference = StateDiff.text(base, new, prefixes: prefixes) else { return StateTold(parts: nil, printed: false) }
            changesPrinted += 1
            emit(
                .stateChange(
                    .init(
                        target: target, old: fromLast ? base : old.map { $0 as Any } ?? base, new: new, difference: difference, prefixes: prefixes,
                        fromLastPrinted: fromLast, from: cause)))
            return StateTold(parts: StateChanges.between(base, new, prefixes: prefixes), printed: true, old: base)
        }
    }

    /// What ``state(target:old:new:from:)`` made of a change: the parts it
    /// changed (nil or none when the state is as it was last told), and
    /// whether a line said so.
    package struct StateTold {
        package let parts: (changes: [StateChange], omitted: Int)?
        package let printed: Bool
        /// The state it was told from (a snapshot, ``StateSnapshot``), for a watch to find its part in.
        package var old: Any?

        package var changed: Bool { printed || parts.map { !$0.changes.isEmpty || $0.omitted > 0 } ?? false }
    }

    /// What was last printed of each target's state, to tell its next change against.
    private var printed: [String: Any] = [:]

    /// The current state of a target (`:state`), or of a part of it at `path`.
    package func snapshot(target: String, _ state: Any, path: String? = nil, of owner: String? = nil) {
        emit(.snapshot(.init(heading: target, value: state, path: path, owner: owner)))
    }

    /// A failed command: where and what.
    package func error(_ message: String, script: String?, line: Int?, column: Int?, text: String? = nil) {
        emit(.error(message, at: .init(script: script.map(scriptName), line: line, column: column, text: text)))
    }

    /// A command whose reply was a `Result.failure`: an error that keeps the reply.
    package func failedReply(_ message: String, reply: any Sendable, script: String?, line: Int?, column: Int?, text: String? = nil) {
        emit(.failedReply(message, at: .init(script: script.map(scriptName), line: line, column: column, text: text), reply: reply))
    }

    /// Something a user should know that is not a failure (a send that has not answered yet).
    package func notice(_ message: String, command: String, script: String?, line: Int?) {
        emit(.notice(message, command: command, at: .init(script: script.map(scriptName), line: line)))
    }

    /// Something the session tells about itself: on standard error, or a `note` line with `--json`.
    package func note(_ message: String) { emit(.note(message)) }

    /// Shell output that is not a cluster fact (help, state dumps, notices).
    package func log(_ text: String) { emit(.message(text)) }

    /// A command's time, when `:timing` is on.
    package func timing(_ duration: Duration) {
        if showsTiming { emit(.timing(duration)) }
    }
}
