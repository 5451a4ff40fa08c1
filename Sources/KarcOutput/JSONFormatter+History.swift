import Foundation
import KarcAsync
import KarcRendering
import KarcSynchronization

extension JSONFormatter {
    /// A `history` line; with `full`, `output`: the lines the command printed then, as they were.
    package func history(_ number: Int, _ entry: HistoryEntry, full: Bool) -> JSONObject {
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
    package func part(_ change: OutputEvent.PartChange) -> JSONObject {
        var object: JSONObject = [
            "target": change.target, "path": StatePath.text(change.path), "by": change.cause, "time": JSONTime.text(change.time),
        ]
        object["old"] = change.old.map(ValueText.json)
        object["new"] = change.new.map(ValueText.json)
        object["number"] = change.command
        object["line"] = change.line
        return object
    }
}
