import KarcRendering
import KarcTrace

extension JSONFormatter {
    /// A `trace` line, as `--trace` writes one after every command. `seq`
    /// is the line printing it (a late part: the command's own); `traced`,
    /// the command it tells.
    package static func traceLine(_ output: OutputEvent.TraceOutput, seq: Int?) -> String {
        var line = SortedJSONFields(capacity: 96 + output.lines.count * 128)
        line.add("command", output.name)
        line.add("hops", objects: output.lines.count) { index, fields in
            let hop = output.lines[index]
            fields.add("depth", hop.depth)
            fields.add("hop", hop.kind.rawValue)
            fields.add("late", hop.late)
            fields.add("milliseconds", hop.duration.map(Milliseconds.value))
            fields.add("parent", hop.parent.map(TraceIDs.text))
            fields.add("span", hop.span.map(TraceIDs.text))
            fields.add("text", hop.text)
        }
        line.add("kind", "trace")
        line.add("late", output.lateOnly)
        line.add("seq", seq)
        line.add("trace", TraceIDs.text(output.trace))
        line.add("traced", output.command)
        return line.finish()
    }
}
