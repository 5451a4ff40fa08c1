import Foundation
import KarcAsync
import KarcRendering
import KarcSynchronization

extension JSONFormatter {
    /// A `history` line; with `full`, `output`: the lines the command printed then, as they were.
    func history(_ number: Int, _ entry: HistoryEntry, full: Bool) -> JSONObject {
        var object: JSONObject = ["kind": "history", "number": number, "line": entry.line]
        object["outcome"] = entry.outcome.map(HistoryEntry.name)
        if full {
            // Each line was written as JSON: kept as it is, not parsed and written again.
            object["output"] = entry.output.output.split(separator: "\n").map { RawJSON(text: String($0)) }
            if entry.output.cut > 0 { object["cut"] = entry.output.cut }
        }
        return object
    }

    /// A part's change: `target`, `path`, `old` and `new` (each left out when the part was absent), `by`, `number` and `line` (the command that made it), `time`.
    func part(_ change: OutputEvent.PartChange) -> JSONObject {
        var object: JSONObject = [
            "target": change.target, "path": StatePath.text(change.path), "by": change.cause, "time": Self.time(change.time),
        ]
        object["old"] = change.old.map(ValueText.json)
        object["new"] = change.new.map(ValueText.json)
        object["number"] = change.command
        object["line"] = change.line
        return object
    }

    /// ISO 8601 with milliseconds, in UTC.
    static func time(_ date: Date) -> String {
        times.withLock { $0.string(from: date) }
    }

    /// A time written by ``time(_:)``; nil when `text` is not one.
    static func time(from text: String) -> Date? {
        times.withLock { $0.date(from: text) }
    }

    /// One formatter for every time written (a `:blame` writes one a change): making one costs more than using it.
    private static let times = KarcMutex(ISO8601DateFormatter.withMilliseconds)
}

extension ISO8601DateFormatter {
    /// ISO 8601 with milliseconds, as snapshot files and `--json` write times.
    static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
