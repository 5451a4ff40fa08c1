import CKarcTerminal
@preconcurrency import CLibedit
import Foundation
import KarcAsync
import KarcSession
import KarcSynchronization
import Synchronization

/// libedit on a thread of its own: the only thread that talks to libedit
/// and, while the prompt is shown, to the terminal.
///
/// It runs libedit unbuffered (one character per `el_gets`) and `poll`s
/// standard input, a wake pipe (messages from the shell) and a signal pipe
/// (SIGINT, SIGTSTP, SIGWINCH, SIGCONT, written by C handlers). So output
/// that arrives while the user types is printed above the prompt, and the
/// prompt and the half-typed line are redrawn intact.
///
/// The shell's task talks to it through two locked mailboxes: `inbox`
/// (lines typed, end of input) and `outbox` (text to print, resume, stop).
package final class LineEditor: PromptEditor {
    package typealias Input = PromptInput
    package typealias Resume = PromptResume

    private struct Outbox {
        var output: [[UInt8]] = []
        var resume: Resume?
        /// A new mark for the prompt (``mark(_:)``): `.some(nil)` clears it.
        var mark: String??
        var stop = false
    }

    private let inbox = KarcMutex<[Input]>([])
    /// The shell's wait for the next input, if it waits (``onInput(_:)``).
    private let inputWaiter = KarcMutex<(@Sendable () -> Void)?>(nil)
    private let outbox = KarcMutex(Outbox())
    private let wake: (read: Int32, write: Int32)
    private let signals: (read: Int32, write: Int32)
    private let finished = KarcMutex(false)
    private let configuration: Configuration

    package init(_ configuration: Configuration) {
        self.configuration = configuration
        wake = Self.makePipe()
        signals = Self.makePipe()
    }

    private static func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        // A pipe can only fail when the process is out of descriptors; the
        // prompt then sees no wake-ups, and the shell still reads lines.
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        return (fds[0], fds[1])
    }

    package func start() {
        let thread = Thread { [self] in
            run()
            finished.withLock { $0 = true }
        }
        thread.name = "karc-line-editor"
        thread.start()
    }

    /// The next line typed (or the end of input), if one is waiting.
    package func take() -> Input? {
        inbox.withLock { inbox in inbox.isEmpty ? nil : inbox.removeFirst() }
    }

    /// Calls `wake` once, when input is waiting (at once if it already is).
    package func onInput(_ wake: @escaping @Sendable () -> Void) {
        let now = inbox.withLock { inbox -> Bool in
            if !inbox.isEmpty { return true }
            inputWaiter.withLock { $0 = wake }
            return false
        }
        if now { wake() }
    }

    /// Hands `input` to the shell and wakes it.
    private func deliver(_ input: Input) {
        inbox.withLock { $0.append(input) }
        inputWaiter.withLock { $0.take() }?()
    }

    /// Prints `bytes` above the prompt (or as they are, while a command runs).
    package func print(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        outbox.withLock { $0.output.append(bytes) }
        poke()
    }

    /// Shows the prompt again after the shell ran a line (or took a part of one).
    package func resume(_ resume: Resume = Resume()) {
        outbox.withLock { $0.resume = resume }
        poke()
    }

    /// Says `mark` after the cluster's name in the prompt (`demo (offline)> `),
    /// or nothing (nil); the prompt on the screen is drawn again.
    package func mark(_ mark: String?) {
        outbox.withLock { $0.mark = .some(mark) }
        poke()
    }

    /// The terminal's width now.
    package var columns: Int? { Self.terminalColumns }

    /// The width of the terminal standard output is, now; nil when it is not one.
    package static var terminalColumns: Int? {
        let columns = karc_terminal_columns(STDOUT_FILENO)
        return columns > 0 ? Int(columns) : nil
    }

    /// Restores the terminal and ends the thread; returns when it has.
    package func stop() async {
        outbox.withLock { $0.stop = true }
        poke()
        while !finished.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    // MARK: - The editor thread

    private func run() {
        setlocale(LC_ALL, "")
        karc_save_terminal()
        karc_install_signal_handlers(signals.write)
        defer { karc_restore_terminal() }
        guard let el = el_init("karc", stdin, stdout, stderr) else { return }
        let context = EditorContext(configuration)
        let history = history_init()
        defer {
            el_end(el)
            if let history { history_end(history) }
        }
        configure(el, history: history, context: context)
        var isReading = true
        _ = karc_el_set_unbuffered(el, 1)  // shows the prompt
        while true {
            var fds = [
                pollfd(fd: STDIN_FILENO, events: Int16(isReading ? POLLIN : 0), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals.read, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 3, -1) >= 0 || errno == EINTR else { return }
            if fds[2].revents != 0 {
                for signal in drain(signals.read) where handle(signal: signal, el: el, isReading: isReading, context: context) {
                    // Ctrl-C at `...>`: the session drops the unfinished command and shows the prompt again.
                    isReading = false
                    _ = karc_el_set_unbuffered(el, 0)
                    deliver(.interrupt)
                }
            }
            if fds[1].revents != 0 {
                _ = drain(wake.read)  // the wake-ups themselves carry nothing
                let messages = outbox.withLock { box in
                    defer { box = Outbox(stop: box.stop) }
                    return box
                }
                for bytes in messages.output { printAbove(bytes, el: el, isReading: isReading) }
                if messages.stop { return }
                if let mark = messages.mark {
                    context.setMark(mark)
                    if isReading { printAbove([], el: el, isReading: true) }
                }
                if let resume = messages.resume, !isReading {
                    if let line = resume.remember, let history {
                        _ = karc_history_enter(history, line)
                        context.save(history)
                    }
                    context.setPrompt(continuing: resume.continuing)
                    isReading = true
                    _ = karc_el_set_unbuffered(el, 1)  // re-enters edit mode and draws the prompt
                }
            }
            if isReading, fds[0].revents != 0 {
                // One key, then whatever libedit queued for itself (a search
                // ended by Enter queues the Enter): keys it holds are not on
                // standard input, so poll would never wake for them.
                var probing = false
                reading: while isReading {
                    switch readCharacter(el, history: history, context: context, probing: probing) {
                    case .idle: break reading
                    case .pending: probing = true
                    case .line(let text):
                        isReading = false
                        configuration.lineEntered()
                        deliver(.line(text))
                    case .endOfInput:
                        isReading = false
                        deliver(.endOfInput)
                    }
                }
                if !isReading {
                    // The terminal back in its normal mode while the command runs,
                    // except that keys typed meanwhile wait, unechoed, for the next prompt line.
                    _ = karc_el_set_unbuffered(el, 0)
                    karc_terminal_hold_input()
                }
            }
        }
    }

    private enum Read {
        /// libedit had nothing more to read without waiting (only when probing).
        case idle
        /// A key was handled; the line is not finished.
        case pending
        case line(String)
        case endOfInput
    }

    /// Lets libedit handle one key. With `probing`, only keys it already
    /// holds (or bytes already waiting): it must not block.
    private func readCharacter(_ el: OpaquePointer, history: OpaquePointer?, context: EditorContext, probing: Bool) -> Read {
        context.startRead(probing: probing)
        var count: Int32 = 0
        let raw = el_gets(el, &count)
        if context.endOfInput { return .endOfInput }
        if context.wouldBlock { return .idle }
        // An empty line (every key deleted, Ctrl-U, Ctrl-L) comes back as
        // NULL: it is not the end of input, which `endOfInput` alone tells.
        guard raw != nil else {
            context.updateHint(for: "", el: el)
            return .pending
        }
        // The line as libedit holds it, in characters: the buffer is not
        // terminated where the line ends, and `count` counts bytes.
        let text = EditorContext.currentLine(el)
        // Unbuffered, libedit reports Ctrl-D on an empty line as a line holding a lone ^D.
        if text == "\u{4}" { return .endOfInput }
        guard text.hasSuffix("\n") else {
            context.updateHint(for: text, el: el)
            return .pending
        }
        let hintWidth = context.hintWidth
        context.updateHint(for: "", el: el, redraw: false)
        let line = String(text.dropLast())
        if hintWidth > 0 { eraseHint(after: line, hintWidth: hintWidth, context: context) }
        return .line(line)
    }

    /// Handles a signal; true when it was a Ctrl-C at a `...>` prompt, which the session answers.
    private func handle(signal: UInt8, el: OpaquePointer, isReading: Bool, context: EditorContext) -> Bool {
        switch signal {
        case UInt8(ascii: "i"):  // Ctrl-C: clear the line, never quit; or interrupt the command running
            guard isReading else {
                configuration.interrupt()
                return false
            }
            // Counts in characters, as el_cursor and el_deletestr take them.
            let info = el_wline(el).pointee
            let length = Int32(info.lastchar - info.buffer)
            _ = el_cursor(el, length)
            el_deletestr(el, length)
            context.updateHint(for: "", el: el, redraw: false)
            writeToTerminal("^C\r\n")
            if context.isContinuing { return true }
            _ = karc_el_refresh(el)
        case UInt8(ascii: "z"):  // Ctrl-Z: suspend with the terminal restored; `fg` redraws
            if isReading { writeToTerminal("\r\n") }
            karc_suspend()
            if isReading { redrawPrompt(el) }
        case UInt8(ascii: "w"):  // the window changed size
            // Cleared before libedit learns the new size: its resize moves the cursor.
            if isReading { clearEditArea(el) }
            el_resize(el)
            if isReading {
                _ = karc_el_refresh(el)
                softWrapRows(el)
            }
        case UInt8(ascii: "c"):
            if isReading { redrawPrompt(el) }
        default:
            break
        }
        return false
    }
}
