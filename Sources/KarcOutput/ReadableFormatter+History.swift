import Foundation
import KarcRendering

extension ReadableFormatter {
    /// `   12  ok     articles.like id=3`, and with `full` what it printed then.
    package func history(_ number: Int, _ entry: HistoryEntry, full: Bool, to sink: OutputSink) {
        // A command of several lines keeps the column: its later lines start under its first.
        let outcome = entry.outcome.map { $0 == .succeeded || $0 == .quit ? "ok   " : "error" } ?? "     "
        let lines = TerminalSafe.text(entry.line).split(separator: "\n", omittingEmptySubsequences: false)
        sink.write(String(format: "%5d  %@  ", number, outcome) + (lines.first.map(String.init) ?? ""))
        for line in lines.dropFirst() { sink.write(String(repeating: " ", count: 14) + line) }
        guard full else { return }
        let output = entry.output.output
        if output.isEmpty {
            sink.write(style.dim("       (it printed nothing)"))
        } else {
            for line in output.split(separator: "\n", omittingEmptySubsequences: false) { sink.write(String(line)) }
        }
        if entry.output.cut > 0 { sink.write(style.dim("       … \(entry.output.cut) more \(entry.output.cut == 1 ? "byte" : "bytes") not kept")) }
    }

    /// A row a change: its command, time and line, then what changed, in
    /// one column for every row, cut to `columns` (a pipe without `COLUMNS`
    /// has no width); where that leaves what changed too little room (or a
    /// command has several lines), what changed on a row of its own under
    /// each, every row cut to the width.
    package func blame(_ blame: OutputEvent.Blame, columns: Int?, to sink: OutputSink) {
        let count = blame.changes.count
        let head =
            count == 0
            ? "no change seen this session"
            : "\(count)\(blame.more ? " latest" : "") change\(count == 1 ? "" : "s"), newest first"
        sink.write(style.state("blame") + "  \(blame.path): " + head)
        let rows = blame.changes.map { change in
            (
                command: change.command.map { "#\($0)  " } ?? "", time: Self.clockTime(change.time),
                what: TerminalSafe.text(change.line ?? change.cause),
                part: Self.part(change, from: blame.path)
            )
        }
        let width = rows.map { 2 + DisplayWidth.of($0.command) + 8 + 2 + DisplayWidth.of($0.what) }.max() ?? 0
        // One row a change while what changed has 30 columns or more beside the widest command.
        let oneRow = !rows.contains { $0.what.contains("\n") } && columns.map { width + 3 + 30 <= $0 } ?? true
        for row in rows {
            let start = "  " + row.command
            let whatWidth = 2 + DisplayWidth.of(row.command) + 8 + 2
            if oneRow {
                let what = DisplayWidth.padded(row.what, to: width - whatWidth)
                let part = columns.map { DisplayWidth.cut(row.part, to: $0 - width - 3) } ?? row.part
                sink.write(start + style.dim(row.time) + "  " + what + "   " + part)
                continue
            }
            // A command over several lines keeps its column (its lines after the first under its first).
            let what =
                columns.map { columns in
                    row.what.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayWidth.cut($0, to: max(1, columns - whatWidth)) }
                        .joined(separator: "\n")
                } ?? row.what
            sink.write(start + style.dim(row.time) + "  " + Self.indented(what, by: whatWidth))
            sink.write("      " + (columns.map { DisplayWidth.cut(row.part, to: max(1, $0 - 6)) } ?? row.part))
        }
        if blame.more { sink.write(style.dim("  … older ones: :blame \(blame.path) N lists N")) }
        if let dropped = blame.droppedBefore {
            sink.write(style.dim("  changes before #\(dropped) are no longer kept (--history-limit)"))
        }
    }

    /// `articles.items[3].likes: 0 → 1`; without the place when it is `blamed`, the path blamed.
    package static func part(_ change: OutputEvent.PartChange, from blamed: String?) -> String {
        let values = (change.old.map { ValueText.inline($0) } ?? "(absent)") + " → " + (change.new.map { ValueText.inline($0) } ?? "(absent)")
        let place = change.place
        return place == blamed ? values : place + ": " + values
    }

    /// `18:02:11`, the time of day.
    package static func clockTime(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT(for: date)))
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d", day / 3_600, day / 60 % 60, day % 60)
    }
}
