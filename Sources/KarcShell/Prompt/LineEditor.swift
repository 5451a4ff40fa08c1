import CKarcTerminal
@preconcurrency import CLibedit
import Foundation
import KarcAsync
import KarcRendering
import KarcSession
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

    package struct Configuration: Sendable {
        var prompt: String
        var completer: Completer
        /// nil: no history file.
        var historyPath: String?
        /// Ctrl-C while a command runs (not while a line is typed: that clears the line).
        var interrupt: @Sendable () -> Void = {}
        /// A line was entered: from now on Ctrl-C is for it (called before it is handed over).
        var lineEntered: @Sendable () -> Void = {}
    }

    /// `--history-file`, else `$XDG_STATE_HOME/karc/NAME.history` (or
    /// `~/.local/state/karc/NAME.history`), one per cluster name, so your
    /// shell's Up does not bring back the demo's commands; `/dev/null` keeps none.
    package static func historyPath(option: String?, cluster name: String, environment: [String: String]) -> String? {
        if let option { return option == "/dev/null" ? nil : option }
        // A name is a file name here: no separators, no leading dot.
        var file = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        if file.isEmpty || file.hasPrefix(".") { file = "_" + file }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return "\(state)/karc/\(file).history" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return "\(home)/.local/state/karc/\(file).history"
    }

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
                for signal in drain(signals.read) {
                    handle(signal: signal, el: el, isReading: isReading, context: context)
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

    /// libedit leaves the hint drawn on the line just entered (the cursor is
    /// now on the next line): go up, clear from the end of the text, come back.
    /// Only when the arithmetic is sure to be right: an ASCII line (one column
    /// a character) that fitted on one row with its hint.
    private func eraseHint(after line: String, hintWidth: Int, context: EditorContext) {
        let columns = Int(karc_terminal_columns(STDOUT_FILENO))
        let end = context.promptWidth + line.utf8.count
        guard line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), columns > 0, end + hintWidth < columns else { return }
        writeToTerminal("\u{1B}[A\u{1B}[\(end + 1)G\u{1B}[K\u{1B}[B\r")
    }

    private func handle(signal: UInt8, el: OpaquePointer, isReading: Bool, context: EditorContext) {
        switch signal {
        case UInt8(ascii: "i"):  // Ctrl-C: clear the line, never quit; or interrupt the command running
            guard isReading else {
                configuration.interrupt()
                return
            }
            // Counts in characters, as el_cursor and el_deletestr take them.
            let info = el_wline(el).pointee
            let length = Int32(info.lastchar - info.buffer)
            _ = el_cursor(el, length)
            el_deletestr(el, length)
            context.updateHint(for: "", el: el, redraw: false)
            writeToTerminal("^C\r\n")
            _ = karc_el_refresh(el)
        case UInt8(ascii: "z"):  // Ctrl-Z: suspend with the terminal restored; `fg` redraws
            if isReading { writeToTerminal("\r\n") }
            karc_suspend()
            if isReading { redrawPrompt(el) }
        case UInt8(ascii: "w"):  // the window changed size
            el_resize(el)
            if isReading { redrawPrompt(el) }
        case UInt8(ascii: "c"):
            if isReading { redrawPrompt(el) }
        default:
            break
        }
    }

    /// Prints output over the prompt line, then draws the prompt and the line again.
    private func printAbove(_ bytes: [UInt8], el: OpaquePointer, isReading: Bool) {
        if isReading { writeToTerminal("\r\u{1B}[K") }  // over the prompt line
        var output = bytes
        if isReading {
            // The terminal is in edit mode: newlines need their carriage returns.
            output = bytes.flatMap { $0 == 10 ? [13, 10] : [$0] }
        }
        OutputSink.writeAll(output, to: STDOUT_FILENO)
        if isReading { _ = karc_el_refresh(el) }
    }

    private func drain(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: buffer[..<count])
        }
    }

    private func configure(_ el: OpaquePointer, history: OpaquePointer?, context: EditorContext) {
        _ = karc_el_set_editor(el, "emacs")
        _ = karc_el_set_clientdata(el, Unmanaged.passUnretained(context).toOpaque())
        _ = karc_el_set_prompt(el) { el in
            EditorContext.of(el)?.promptText
        }
        _ = karc_el_set_rprompt(el) { el in
            EditorContext.of(el)?.hintText
        }
        _ = karc_el_addfn(el, "karc-complete", "Complete targets, commands, fields and values") { el, _ in
            guard let el, let context = EditorContext.of(el) else { return UInt8(CC_ERROR) }
            return context.complete(el)
        }
        _ = karc_el_bind(el, "^I", "karc-complete")
        _ = karc_el_set_getcfn(el) { el, character in
            guard let el, let character, let context = EditorContext.of(el) else { return -1 }
            return context.readKey(into: character)
        }
        if let history {
            _ = karc_history_setsize(history, 1_000)
            _ = karc_history_setunique(history, 1)
            _ = karc_el_set_history(el, history)
            context.load(history)
        }
    }
}

/// The editor thread's state that libedit's callbacks reach through `EL_CLIENTDATA`.
final class EditorContext {
    let completer: Completer
    let historyPath: String?
    /// C strings handed to libedit: they must stay valid until replaced.
    private(set) var promptText: UnsafeMutablePointer<CChar>
    private let prompt: String
    private(set) var hintText: UnsafeMutablePointer<CChar>
    private var hint = ""
    /// The prompt's width in columns.
    let promptWidth: Int
    /// The hint's width as drawn; 0 when none is shown.
    var hintWidth: Int { hint.unicodeScalars.count }

    init(_ configuration: LineEditor.Configuration) {
        completer = configuration.completer
        historyPath = configuration.historyPath
        prompt = configuration.prompt
        promptText = strdup(configuration.prompt)
        promptWidth = DisplayWidth.of(configuration.prompt)
        hintText = strdup("")
    }

    deinit {
        free(promptText)
        free(hintText)
    }

    // MARK: Reading keys (libedit's EL_GETCFN)

    /// This read may not wait for a key (it only drains what libedit holds).
    private var probing = false
    /// Keys asked for during this read.
    private var reads = 0
    /// Standard input ended (or failed): the end of input, not an empty line.
    private(set) var endOfInput = false
    /// A probing read found nothing to read.
    private(set) var wouldBlock = false

    func startRead(probing: Bool) {
        self.probing = probing
        reads = 0
        wouldBlock = false
    }

    /// One character from standard input, for libedit: 1 when read, 0 at the
    /// end of input, -1 when a probing read would wait. UTF-8 is decoded here,
    /// a character at a time; an invalid sequence is skipped, as libedit does.
    func readKey(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        defer { reads += 1 }
        if probing, reads == 0, !Self.inputIsWaiting() {
            wouldBlock = true
            errno = EAGAIN
            return -1
        }
        var bytes: [UInt8] = []
        while true {
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                endOfInput = true
                return 0
            }
            bytes.append(byte)
            switch UTF8Key.decode(bytes) {
            case .incomplete: continue
            case .invalid: bytes.removeAll()
            case .scalar(let scalar):
                character.pointee = wchar_t(bitPattern: scalar.value)
                return 1
            }
        }
    }

    private static func inputIsWaiting() -> Bool {
        var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0
    }

    /// The line libedit holds, up to its last character.
    static func currentLine(_ el: OpaquePointer) -> String {
        let info = el_wline(el).pointee
        let characters = UnsafeBufferPointer(start: info.buffer, count: info.lastchar - info.buffer)
        var text = String.UnicodeScalarView()
        for character in characters {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: character)) { text.append(scalar) }
        }
        return String(text)
    }

    /// The cluster's prompt, or `...> ` while a line goes on.
    func setPrompt(continuing: Bool) {
        let text = continuing ? "...> " : prompt
        free(promptText)
        promptText = strdup(text)
    }

    static func of(_ el: OpaquePointer?) -> EditorContext? {
        guard let el, let data = karc_el_get_clientdata(el) else { return nil }
        return Unmanaged<EditorContext>.fromOpaque(data).takeUnretainedValue()
    }

    /// Shows the fields of a complete command on the right, like redis-cli's hints.
    func updateHint(for line: String, el: OpaquePointer, redraw: Bool = true) {
        let new = completer.hint(for: line) ?? ""
        guard new != hint else { return }
        hint = new
        free(hintText)
        hintText = strdup(new)
        guard redraw else { return }
        redrawPrompt(el)
    }

    func complete(_ el: OpaquePointer) -> UInt8 {
        let info = el_line(el).pointee
        let length = info.cursor - info.buffer
        let typed = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: length), as: UTF8.self)
        let completion = completer.complete(typed)
        if !completion.insert.isEmpty {
            _ = el_insertstr(el, completion.insert)
        }
        if completion.candidates.count > 1, completion.insert.isEmpty {
            // The list goes below and the line is drawn again under it; with the
            // cursor at the end of the text, the line left above loses its hint.
            let clear = info.cursor == info.lastchar ? "\u{1B}[K" : ""
            writeToTerminal(clear + "\r\n" + completion.candidates.joined(separator: "  ") + "\r\n")
            return UInt8(CC_REDISPLAY)
        }
        return UInt8(completion.insert.isEmpty ? CC_REFRESH_BEEP : CC_REFRESH)
    }

    func load(_ history: OpaquePointer) {
        guard let historyPath else { return }
        _ = karc_history_load(history, historyPath)
    }

    /// Saves the history (mode 0600, in a directory made 0700 if needed).
    func save(_ history: OpaquePointer) {
        guard let historyPath else { return }
        let directory = (historyPath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = karc_history_save(history, historyPath)
        _ = chmod(historyPath, 0o600)
    }
}

/// Writes to the terminal directly (the editor thread's output beside libedit's).
private func writeToTerminal(_ text: String) {
    OutputSink.writeAll(Array(text.utf8), to: STDOUT_FILENO)
}

/// Draws the prompt and the line anew from the start of the prompt's row
/// (EL_REFRESH draws from wherever the cursor is).
private func redrawPrompt(_ el: OpaquePointer) {
    writeToTerminal("\r\u{1B}[K")
    _ = karc_el_refresh(el)
}

extension LineEditor {
    /// The prompt of a session in front of the cluster `name`: `completer`
    /// completes, the history file is the cluster's (or `historyFile`), and
    /// Ctrl-C while a command runs calls `interrupt`.
    package static func forSession(
        named name: String, completer: Completer, historyFile: String?,
        interrupt: @escaping @Sendable () -> Void, lineEntered: @escaping @Sendable () -> Void = {}
    ) -> LineEditor {
        LineEditor(
            .init(
                prompt: "\(name)> ",
                completer: completer,
                historyPath: historyPath(option: historyFile, cluster: name, environment: ProcessInfo.processInfo.environment),
                interrupt: interrupt,
                lineEntered: lineEntered))
    }
}
