import CKarcTerminal
@preconcurrency import CLibedit
import Foundation
import KarcRendering
import KarcSession

/// The editor thread's state that libedit's callbacks reach through `EL_CLIENTDATA`.
final class EditorContext {
    let completer: Completer
    let historyPath: String?
    /// C strings handed to libedit: they must stay valid until replaced.
    private(set) var promptText: UnsafeMutablePointer<CChar>
    /// The cluster's prompt (`demo> `).
    private let prompt: String
    /// What the prompt says after the cluster's name (`demo (offline)> `); nil: nothing.
    private var mark: String?
    private(set) var hintText: UnsafeMutablePointer<CChar>
    private var hint = ""
    /// The prompt's width in columns, as drawn now.
    private(set) var promptWidth: Int
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

    /// The prompt is `...> `: a command goes on.
    private(set) var isContinuing = false

    /// The cluster's prompt (with its mark), or `...> ` while a line goes on.
    func setPrompt(continuing: Bool) {
        isContinuing = continuing
        var text = prompt
        if let mark, text.hasSuffix("> ") { text = text.dropLast(2) + " (\(mark))> " }
        if continuing { text = "...> " }
        free(promptText)
        promptText = strdup(text)
        promptWidth = DisplayWidth.of(text)
    }

    /// Says `mark` after the cluster's name (`offline`), or nothing.
    func setMark(_ mark: String?) {
        self.mark = mark
        setPrompt(continuing: isContinuing)
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
func writeToTerminal(_ text: String) {
    OutputSink.writeAll(Array(text.utf8), to: STDOUT_FILENO)
}

/// Draws the prompt and the line anew from the start of the prompt's first
/// row (EL_REFRESH draws from wherever the cursor is).
func redrawPrompt(_ el: OpaquePointer) {
    clearEditArea(el)
    _ = karc_el_refresh(el)
    softWrapRows(el)
}

/// Moves to the start of the prompt's first row and clears from there
/// down: a line longer than the terminal is wide takes several rows, and
/// the cursor is on the row of its position. After a resize the rows are
/// counted at the new width, as terminals that rewrap long lines show them.
func clearEditArea(_ el: OpaquePointer) {
    let columns = Int(karc_terminal_columns(STDOUT_FILENO))
    let info = el_line(el).pointee
    let before = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: info.cursor - info.buffer), as: UTF8.self)
    let position = (EditorContext.of(el)?.promptWidth ?? 0) + DisplayWidth.of(before)
    let row = columns > 0 ? position / columns : 0
    // Not `ESC[J` from the start of the row: at the screen's top-left corner tmux (scroll-on-clear)
    // takes that for a cleared screen and keeps the rows in its history, and a window that then grows
    // rewraps them back into view, a stale copy of the line above it for each redraw. So the first row
    // is cleared on its own and the rest from the row below, the cursor put back where it was.
    writeToTerminal((row > 0 ? "\u{1B}[\(row)A" : "") + "\r\u{1B}[K\u{1B}7\u{1B}[B\u{1B}[J\u{1B}8")
}
