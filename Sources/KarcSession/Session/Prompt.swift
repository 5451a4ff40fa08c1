import Foundation
@_spi(KarcInternal) import KarcAsync
import KarcLanguage
import KarcOutput
import KarcRendering

/// The interactive loop: libedit's prompt (``LineEditor``) on its own
/// thread, the session here. While the user types, this loop sleeps until a
/// line is entered, the cluster pushes records (``ShellCluster/nextRecords()``),
/// a late reply comes or the inspector's page asks something
/// (``SessionInbox``), and hands what happened to the editor, which prints
/// it above the prompt. A failed command does not end the session.
package struct Prompt {
    let session: ShellSession
    /// The line editor: libedit here (`KarcShell`), or an attached shell's, through its connection.
    let editor: any PromptEditor
    /// Whether each printed state is kept for `:export-test` (a person's
    /// session is short enough); not for an app's inspector, which runs as long as the app.
    package var keepsStates = true
    /// Whether the greeting is printed (a session nobody types in prints none).
    package var greets = true

    package init(session: ShellSession, editor: any PromptEditor) {
        self.session = session
        self.editor = editor
    }

    package func run() async -> ScriptRunner.Result {
        let sink = session.renderer.sink
        if greets, !session.options.printing.quiet {
            sink.write("karc shell on \(session.cluster.name): :help lists the targets and commands; Tab completes; Ctrl-D leaves")
            sink.flush()
        }
        session.renderer.promptWidth = DisplayWidth.of(session.cluster.name) + 2
        session.renderer.terminalColumns = { [editor] in editor.columns }
        await StartupFiles.run(in: session)
        session.io.isInteractive = true
        // A person's session is short enough to keep each printed state for `:export-test`.
        session.log.keepsStates = keepsStates
        session.noteWhatComesBack()
        editor.start()
        // The lines of a command that goes on (an open string, list or object), bounded.
        var reader = CommandReader()
        // When records were last printed above the line (see `paced(after:)`).
        let clock = session.waits.runtime.clock
        var lastPrint = clock.now - Self.printInterval
        while true {
            let seen = session.interrupter.triggers
            switch editor.take() {
            case .line(let part)?:
                if !reader.isContinuing { reader.restartNumbering() }
                reader.append(part)
                // One line may end several commands: those a stray quote had held back are read again.
                var quit = false
                var last: String?
                while let read = reader.next() {
                    let command =
                        switch read {
                        case .command(let command): command
                        case .unterminated(let unterminated): unterminated.command
                        }
                    last = command.text
                    // Lines typed ahead wait for room as a script's do: a shell that stopped reading
                    // holds the app its output's room and one command's output, not every line's.
                    // A Ctrl-C that came after the line was entered (it ended that wait, or came while
                    // an earlier line ran) is for this line and those typed after it: none of them runs.
                    let hadRoom = await session.waitForRoom()
                    if !hadRoom || session.interrupter.isTriggered {
                        let dropped = command.lines.count + reader.discardPending() + editor.dropTypedAhead()
                        let lines = dropped == 1 ? "the line" : "\(dropped) lines"
                        let why = hadRoom ? "" : " (\(dropped == 1 ? "it" : "they") waited for room in the shell's output)"
                        _ = session.fail("interrupted: \(lines) did not run\(why)", column: nil, at: .init())
                        sink.flush()
                        break
                    }
                    let outcome: ShellSession.Outcome
                    switch read {
                    case .command(let command):
                        outcome = await session.execute(command.text, at: .init(script: nil, line: nil))
                    case .unterminated(let unterminated):
                        outcome = session.refuse(unterminated, script: nil)
                    }
                    sink.flush()  // at a prompt, everything a command printed shows before the next prompt
                    if outcome == .quit {
                        quit = true
                        break
                    }
                }
                if quit {
                    await editor.stop()
                    return .succeeded
                }
                if reader.isContinuing, last == nil {
                    editor.resume(.init(continuing: true))
                    continue
                }
                session.noteWhatComesBack()
                let trimmed = last?.trimmingCharacters(in: .whitespaces) ?? ""
                editor.resume(.init(continuing: reader.isContinuing, remember: trimmed.isEmpty ? nil : trimmed))
            case .interrupt?:
                let dropped = reader.discardPending()
                if dropped > 0 {
                    session.renderer.log("the unfinished command is dropped (\(dropped) line\(dropped == 1 ? "" : "s"))")
                    sink.flush()
                }
                editor.resume(.init(continuing: false))
            case .endOfInput?:
                let unfinished: CommandReader.Unterminated? =
                    if case .unterminated(let open)? = reader.next(atEnd: true) { open } else { nil }
                await editor.stop()
                sink.write("")
                // Ctrl-D at a `...>` prompt: the unfinished command is not run, and the shell says so and fails.
                if let unfinished {
                    session.log.record.add(unfinished.command.text, succeeded: false)
                    let kind = unfinished.opening.kind
                    _ = session.fail(
                        "the unfinished command was not run: the '\(kind.opener)' at line \(unfinished.line), column \(unfinished.column)"
                            + " never closed (Ctrl-D ended the input)", column: nil, at: .init())
                }
                sink.flush()
                return unfinished == nil ? .succeeded : .failed
            case nil:
                // A Ctrl-C that came when no command ran (its command ended as it was pressed) interrupts
                // nothing: kept, it would end each wait below at once, and the loop would spin. One that came
                // since the look for a line may be for a line that came with it: kept for the next look.
                session.interrupter.reset(unlessTriggeredSince: seen)
                _ = await session.waitForRoom(interruptible: false)
                // A page's questions, and the lines it runs: printed above the line being typed, never over it.
                sink.hold(true)
                let answered = await session.answerQuestions()
                sink.hold(false)
                if answered {
                    editor.print(sink.takeBuffered())
                    lastPrint = clock.now
                    continue
                }
                await paced(after: lastPrint)
                session.printArrived(background: true)
                let arrived = sink.takeBuffered()
                if !arrived.isEmpty {
                    editor.print(arrived)
                    lastPrint = clock.now
                    continue
                }
                // Asleep until a line is entered, the cluster pushes records, a late reply or a page's question comes.
                let more = await session.waits.nextRecords(until: nil) { wake in
                    editor.onInput(wake)
                    session.waits.lateReplies.onArrival(wake)
                    session.inbox?.onArrival(wake)
                }
                if !more.isEmpty {
                    session.printRecords(consume more, background: true)
                    editor.print(sink.takeBuffered())
                    lastPrint = clock.now
                }
            }
        }
    }

    /// The shortest time between two prints above the line: a cluster that
    /// changes a million times a second is shown some fifty times a second,
    /// each target's changes in one diff, every event in order. Printing
    /// each batch as it came kept a core busy rendering what no one can
    /// read (and, attached, sending it), beside the app.
    static let printInterval = Duration.milliseconds(20)

    /// Waits until `printInterval` after `last`, or until the user enters something.
    private func paced(after last: ShellClock.Instant) async {
        let clock = session.waits.runtime.clock
        let due = last + Self.printInterval
        guard clock.now < due else { return }
        let waited = Pending<Void>()
        let alarm = clock.arm(at: due) { waited.finish(()) }
        editor.onInput { waited.finish(()) }
        _ = await waited.value()
        clock.disarm(alarm)
    }
}
