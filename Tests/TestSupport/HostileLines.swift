/// Lines a careless or hostile user might type: every meta command with
/// arguments drawn from edge cases (dots, brackets, quotes, numbers past
/// Int's range, durations past a day, control and non-ASCII characters),
/// and commands with fields like them. Seeded, so a failure repeats.
/// Durations are either short or refused (over a day): `:sleep` and
/// `:wait` (with a short `--timeout`) never hold a run up.
public struct HostileLines: Sequence, IteratorProtocol {
    /// Meta commands as the shell spells them, aliases included. Commands that
    /// write or read files are left out: a fuzz must not touch the disk.
    public static let metaCommands = [
        "help", "h", "?", "state", "history", "events", "wait", "sleep", "timing", "diff", "HELP", "State", "nope", "", ":",
    ]

    /// Arguments and field values at the edges of what the shell reads.
    public static let tokens = [
        ".", "..", "...", ".x", "x.", "x..y", "", " ", "[", "]", "[]", "[[", "{", "}", "{}", "\"", "\"\"", "\"\\", "\\", "#", "=", "==", "x=",
        "=x", "-", "--", "--all", "-1", "0", "1", "99999999999999999999", "9223372036854775807", "-9223372036854775808", "1e308", "-1e308",
        "nan", "inf", "0.5", "0ms", "1ms", "-5s", "86400.001s", "86401s", "1e20s", "NaNs", "1441m", "999999999m", "ms", "s", "on", "off", "only",
        "mute", "summary", "items[0]", "items[-1]", "items[99999999999999999999]", "items[", "items]", "[\"k\"]", "[\"\"]", "a.b.c.d",
        "é", "🙂", "e\u{301}", "\u{0}", "\u{7}", "\u{1b}[2J", "\t", "%@", "%s%s%s%n", String(repeating: "x", count: 5_000),
        String(repeating: "[", count: 300), String(repeating: ".", count: 300),
    ]

    private var state: UInt64
    private let targets: [String]
    private let commands: [String]
    private var remaining: Int

    /// `count` lines for a cluster with these targets and `target.command` names.
    public init(seed: UInt64, count: Int, targets: [String], commands: [String]) {
        state = seed
        self.targets = targets
        self.commands = commands
        remaining = count
    }

    public mutating func next() -> String? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        var words: [String] = []
        switch random(4) {
        case 0:
            words.append(":" + pick(Self.metaCommands))
        case 1:
            words.append(":" + pick(Self.metaCommands) + pick(Self.tokens))
        case 2:
            words.append(pick(commands.isEmpty ? Self.tokens : commands))
        default:
            words.append(pick(targets.isEmpty ? Self.tokens : targets) + pick(Self.tokens))
        }
        for _ in 0..<random(4) {
            switch random(3) {
            case 0: words.append(pick(Self.tokens))
            case 1: words.append(pick(targets + Self.tokens) + pick(Self.tokens))
            default: words.append(pick(["value", "_0", "item", "quantity", "by", "x", "a.b"]) + "=" + pick(Self.tokens))
            }
        }
        return words.joined(separator: pick([" ", "  ", "\t"]))
    }

    /// SplitMix64: a fixed sequence for a seed, on every platform.
    private mutating func random(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }

    private mutating func pick(_ choices: [String]) -> String {
        choices[random(choices.count)]
    }
}
