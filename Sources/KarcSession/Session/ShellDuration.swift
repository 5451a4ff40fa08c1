/// Durations as the shell writes them: `250ms`, `2s`, `1.5s`, `1m`, `1h`.
public enum ShellDuration {
    /// `250ms`, `2s`, `1.5s`, `1m`, `1h`; nil for anything else (or more than 24 hours).
    public static func parse(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3_600)]
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            // "ms" is tried before "s" and "m": "250ms" is never read as 250m + "s".
            guard let value = Double(number), value >= 0, value.isFinite, value * seconds <= 86_400 else { return nil }
            return .milliseconds(Int64((value * seconds * 1_000).rounded()))
        }
        return nil
    }

    package static let expectation = "a duration like 250ms, 2s, 1.5s, 1m or 1h (at most 24 hours)"

    /// A duration as the shell writes it (`250ms`, `5s`, `1m`, `2h`).
    public static func describe(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        if milliseconds % 3_600_000 == 0, milliseconds > 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0, milliseconds > 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000)s" }
        return "\(milliseconds)ms"
    }

    /// `duration` in whole milliseconds (rounded down).
    package static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
