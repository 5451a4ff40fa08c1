/// A duration in milliseconds, as `:timing`, a trace's lines and `--json` give it.
package enum Milliseconds {
    /// `duration` in milliseconds.
    package static func value(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    /// `0.115 ms`: three decimals (written by hand: `String(format:)` cost a tenth of a traced command).
    package static func text(_ duration: Duration) -> String {
        let micros = (value(duration) * 1_000).rounded()
        guard micros.magnitude < 1e15 else { return "\(value(duration)) ms" }
        let whole = Int(micros)
        let fraction = String(whole.magnitude % 1_000)
        let sign = whole < 0 ? "-" : ""
        return sign + String(whole.magnitude / 1_000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + " ms"
    }
}
