import Foundation
import KarcRendering
import KarcTrace

/// Output for people: `reply  …`, `event  source: …`, diffs with `+`/`-`,
/// errors as `script:line:column: error: …` (on standard error) or, at the
/// prompt, a caret under the column.
package struct ReadableFormatter: OutputFormatter {
    package let style: Style

    package init(style: Style) {
        self.style = style
    }

    package func write(_ event: OutputEvent, in context: OutputContext, to sink: OutputSink) {
        switch event {
        case .echo(let line):
            sink.write(style.dim("> ") + TerminalSafe.text(line))
        case .reply(_, let value):
            sink.write(style.reply("reply") + "  " + Self.indented(ValueText.dump(value), by: 7))
        case .lateReply(let command, let value):
            let head = "  (late, \(command.described)) "
            sink.write(style.reply("reply") + head + Self.indented(ValueText.dump(value), by: 5 + DisplayWidth.of(head)))
        case .event(let source, let value, let late, let by):
            // Work of an earlier command that came in another's output says whose it is, as a late reply does;
            // work no command of this session began says who did, as a diff does.
            let head = "  \(source)" + (late.map { " (late, \($0))" } ?? "") + Self.from(by) + ": "
            sink.write(style.event("event") + head + Self.indented(ValueText.dump(value), by: 5 + DisplayWidth.of(head)))
        case .redirect(let by, let action, let to):
            let replacement = to.map(ValueText.dump).joined(separator: ", ")
            sink.write(style.error("redirected") + "  \(ValueText.dump(action)) by \(by)" + (to.isEmpty ? " (dropped)" : " → \(replacement)"))
        case .stateChange(let change):
            sink.write(style.state("state") + "  \(change.target)" + Self.from(change.from) + ":")
            for line in change.difference.split(separator: "\n", omittingEmptySubsequences: false) {
                switch line.first {
                case "+": sink.write("  " + style.added(String(line)))
                case "-": sink.write("  " + style.removed(String(line)))
                default: sink.write("  " + line)
                }
            }
        case .stateSummary(let target, _, let counts, let from):
            sink.write(style.state("state") + "  \(target)" + Self.from(from) + ": " + StateSummary.describe(counts))
        case .snapshot(let snapshot):
            let heading = snapshot.heading
            sink.write(style.state("state") + "  \(heading): " + Self.indented(ValueText.dump(snapshot.value), by: 9 + DisplayWidth.of(heading)))
        case .error(let message, let location), .failedReply(let message, let location, _):
            error(TerminalSafe.text(message), at: location, in: context, to: sink)
        case .notice(let message, _, let location):
            sink.writeError(Self.prefix(location, columns: false) + style.dim("note") + ": " + TerminalSafe.text(message))
        case .note(let message):
            sink.writeError(style.dim("note") + ": " + TerminalSafe.text(message))
        case .message(let text):
            sink.write(TerminalSafe.text(text))
        case .problem(let text):
            sink.write(style.error(TerminalSafe.text(text)))
        case .timing(let duration):
            sink.write(style.dim("time   " + Milliseconds.text(duration)))
        case .unchanged:
            sink.write(style.dim("ok (no changes)"))
        case .begin, .done:
            return
        case .setting(let setting):
            sink.write(setting.text)
        case .help(let page):
            for line in page.lines { sink.write(line) }
        case .trace(let output):
            let head = output.command.map { "#\($0) " + (output.name ?? "") } ?? (output.name ?? "trace \(TraceIDs.text(output.trace))")
            sink.write(style.dim("trace") + "  " + head + (output.lateOnly ? ", later:" : ":"))
            for line in output.lines { sink.write(Self.traceLine(line, lateOnly: output.lateOnly, columns: context.terminalColumns())) }
        case .sequence(let diagram, let commands):
            sink.write(style.dim("seq") + "    " + commands.map { "#\($0.seq) \($0.name)" }.joined(separator: ", ") + ":")
            for line in diagram.lines(width: context.terminalColumns() ?? 100) { sink.write(line) }
        case .historyEntry(let number, let entry, let full):
            history(number, entry, full: full, to: sink)
        case .watch(_, let change):
            sink.write(style.state("watch") + "  " + Self.part(change, from: nil) + style.dim("  (by \(change.cause))"))
        case .watches(let paths):
            sink.write(paths.isEmpty ? "no watches (:watch PATH adds one)" : "watching  " + paths.joined(separator: ", "))
        case .blame(let blame):
            self.blame(blame, columns: context.terminalColumns(), to: sink)
        case .snapshots(let snapshots, let kept):
            self.snapshots(snapshots, kept: kept, to: sink)
        case .restored(let restored):
            self.restored(restored, to: sink)
        case .reset(let reset):
            self.reset(reset, to: sink)
        }
    }

    package func forget() {}

    /// At the prompt (no script, no line) the caret goes under the column,
    /// counted in terminal columns: a wide character takes two.
    private func error(_ message: String, at location: OutputEvent.SourceLocation, in context: OutputContext, to sink: OutputSink) {
        if location.script == nil, location.line == nil, let promptWidth = context.promptWidth, let column = location.column {
            let before = location.text.map { DisplayWidth.of($0.prefix(max(0, column - 1))) } ?? column - 1
            if let text = location.text, let columns = context.terminalColumns(), columns > 0, promptWidth + DisplayWidth.of(text) > columns {
                // The line took several rows: a caret under the last would point at the wrong one.
                // The row that holds the column is shown again, the caret under it.
                let (row, caret, isLast) = Self.row(of: text, at: promptWidth + before, promptWidth: promptWidth, columns: columns)
                if !isLast { sink.write(row) }  // under the last row, the caret is right where it is
                sink.write(String(repeating: " ", count: caret) + style.error("^"))
            } else {
                sink.write(String(repeating: " ", count: max(0, promptWidth + before)) + style.error("^"))
            }
            sink.writeError(style.error("error") + ": " + message)
            return
        }
        // `script:line:column: error: message`, as compilers write it, so editors can jump there.
        sink.writeError(Self.prefix(location, columns: true) + style.error("error") + ": " + message)
    }

    /// The row of a wrapped prompt line (the prompt shown as spaces) that
    /// holds display position `position`, the caret's column in it, and
    /// whether it is the line's last row.
    package static func row(of text: String, at position: Int, promptWidth: Int, columns: Int) -> (text: String, caret: Int, isLast: Bool) {
        let target = position / columns
        var (row, width) = (0, promptWidth)
        var shown = target == 0 ? String(repeating: " ", count: promptWidth) : ""
        for character in text {
            let characterWidth = DisplayWidth.of(String(character))
            // A wide character that does not fit at the end of a row goes to the next one, as terminals wrap it.
            if width + characterWidth > columns {
                row += 1
                width = 0
                if row > target { break }
            }
            if row == target { shown.append(character) }
            width += characterWidth
        }
        return (shown, position % columns, row <= target)
    }

    /// `script:line:column: ` (what is known of it), or nothing.
    private static func prefix(_ location: OutputEvent.SourceLocation, columns: Bool) -> String {
        var text = ""
        if let script = location.script { text += "\(TerminalSafe.text(script)):" }
        if let line = location.line { text += "\(line):" }
        if columns, let column = location.column { text += "\(column):" }
        return text.isEmpty ? "" : text + " "
    }

    /// A line of a trace's tree, indented by its depth; in `columns` (when
    /// known) cut where its text is too long, its time and `(late)` kept
    /// whole at its end, so the line never wraps into the next.
    package static func traceLine(_ line: TraceTree.Line, lateOnly: Bool, columns: Int?) -> String {
        let indent = String(repeating: "  ", count: line.depth + 1)
        var text = Substring(line.text)
        var tail = line.late && !lateOnly ? "  (late)" : ""
        if let duration = line.duration {
            let time = "  " + Milliseconds.text(duration)
            if text.hasSuffix(time) {
                text = text.dropLast(time.count)
                tail = time + tail
            }
        }
        guard let columns, columns > 0 else { return indent + text + tail }
        let room = columns - indent.count - DisplayWidth.of(tail)
        // Too deep for the width: the line is cut whole (its time too) rather than wrapped.
        guard room >= 8 else { return DisplayWidth.cut(indent + text + tail, to: columns) }
        return indent + DisplayWidth.cut(text, to: room) + tail
    }

    /// ` (by timer account.tick)` after a target whose change no command of this session made: its trace's root.
    private static func from(_ cause: String?) -> String {
        cause.map { " (by \($0))" } ?? ""
    }

    /// `text`'s lines after its first indented by `width` columns: a value that spans lines keeps the column it starts at.
    package static func indented(_ text: String, by width: Int) -> String {
        guard text.contains("\n") else { return text }
        let pad = String(repeating: " ", count: width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset == 0 ? String($0.element) : pad + $0.element }.joined(separator: "\n")
    }
}
