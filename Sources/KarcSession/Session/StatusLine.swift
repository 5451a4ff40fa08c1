/// A line a wait keeps up to date on a terminal while nothing else prints
/// (``ShellRuntime/statusLine``), cleared before anything is.
struct StatusLine {
    let write: (@Sendable (String) -> Void)?
    private(set) var isShown = false

    /// Writes `text` in place of the line shown; nothing without a terminal.
    mutating func show(_ text: String) {
        guard let write else { return }
        write(text)
        isShown = true
    }

    /// Takes the line away, so what prints next starts on a clean line.
    mutating func clear() {
        guard isShown, let write else { return }
        write("")
        isShown = false
    }

    /// `waiting for #3 slow.poke to answer: 4s of at most 50s after the script ended (Ctrl-C stops)`.
    static func waiting(for commands: [LateReplies.Origin], waited: Duration, limit: Duration) -> String {
        let named = commands.prefix(2).map(\.described).joined(separator: " and ")
        let more = commands.count > 2 ? " and \(commands.count - 2) more" : ""
        return "waiting for \(named)\(more) to answer: \(ShellDuration.describe(waited)) of at most \(ShellDuration.describe(limit)) "
            + "after the script ended (Ctrl-C stops)"
    }
}
