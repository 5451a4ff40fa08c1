import CKarcTerminal
@preconcurrency import CLibedit
import Foundation
import KarcRendering

/// Writes the prompt and the line once more over what libedit just drew,
/// as one run of text the terminal wraps itself, then puts the cursor back.
///
/// libedit's full redraw breaks a long line where a row ends in a blank
/// with a newline of its own; a terminal that rewraps long lines when its
/// window grows (tmux, VTE, iTerm2) rewraps only rows it wrapped itself,
/// so after that redraw a window that grew kept the line on two rows while
/// the next redraw counted one, and a stale copy of its first row stayed
/// above. Written again in one run, every row is the terminal's own wrap.
func softWrapRows(_ el: OpaquePointer) {
    let columns = Int(karc_terminal_columns(STDOUT_FILENO))
    guard columns > 0, let context = EditorContext.of(el) else { return }
    let line = EditorContext.currentLine(el)
    // libedit draws a control character as `^X`: its layout is not the text's, so it is left as drawn.
    guard line.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return }
    let end = context.promptWidth + DisplayWidth.of(line)
    // One row wraps nowhere.
    guard end > columns else { return }
    let info = el_wline(el).pointee
    let before = String(String.UnicodeScalarView(line.unicodeScalars.prefix(info.cursor - info.buffer)))
    let position = context.promptWidth + DisplayWidth.of(before)
    // Where the cursor is (libedit put it at `position`), to the start of the prompt's row.
    var text = (position / columns > 0 ? "\u{1B}[\(position / columns)A" : "") + "\r"
    text += String(cString: context.promptText) + line
    // A line that ends at the edge leaves the cursor on its last column, not on the row below.
    let endRow = end % columns == 0 ? end / columns - 1 : end / columns
    let up = endRow - position / columns
    if up > 0 {
        text += "\u{1B}[\(up)A\r"
    } else {
        text += up < 0 ? String(repeating: "\r\n", count: -up) : "\r"
    }
    if position % columns > 0 { text += "\u{1B}[\(position % columns)C" }
    writeToTerminal(text)
}
