import CKarcTerminal
@preconcurrency import CLibedit
import Foundation
import KarcSession

/// What the editor thread draws and reads beside libedit: output printed
/// above the line, the hint erased from a line entered, the signal and
/// wake pipes drained, and libedit set up with karc's prompt, hint,
/// completion, key reader and history.
extension LineEditor {
    /// libedit leaves the hint drawn on the line just entered (the cursor is
    /// now on the next line): go up, clear from the end of the text, come back.
    /// Only when the arithmetic is sure to be right: an ASCII line (one column
    /// a character) that fitted on one row with its hint.
    func eraseHint(after line: String, hintWidth: Int, context: EditorContext) {
        let columns = Int(karc_terminal_columns(STDOUT_FILENO))
        let end = context.promptWidth + line.utf8.count
        guard line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), columns > 0, end + hintWidth < columns else { return }
        writeToTerminal("\u{1B}[A\u{1B}[\(end + 1)G\u{1B}[K\u{1B}[B\r")
    }

    /// Prints output over the prompt line, then draws the prompt and the line again.
    func printAbove(_ bytes: [UInt8], el: OpaquePointer, isReading: Bool) {
        if isReading { clearEditArea(el) }  // over the prompt and the line, however many rows they take
        var output = bytes
        if isReading {
            // The terminal is in edit mode: newlines need their carriage returns.
            output = bytes.flatMap { $0 == 10 ? [13, 10] : [$0] }
        }
        OutputSink.writeAll(output, to: STDOUT_FILENO)
        if isReading {
            _ = karc_el_refresh(el)
            softWrapRows(el)
        }
    }

    func drain(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: buffer[..<count])
        }
    }

    func configure(_ el: OpaquePointer, history: OpaquePointer?, context: EditorContext) {
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
