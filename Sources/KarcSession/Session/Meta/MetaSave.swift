/// `:save FILE [--all]`: this session's commands that succeeded (or all) as a script that replays it.
enum MetaSave: MetaCommand {
    static let name = "save"
    static let arguments = "FILE [--all]"
    static let summary = "write this session's commands that succeeded (or all) as a script"
    static let details = [
        ":save session.karc          the commands that succeeded, as a script (karc session.karc replays it)",
        ":save session.karc --all    the failed ones too",
    ]
    /// A replay would overwrite the script it runs from.
    static let isReplayed = false

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0
            ? MetaCompletions(candidates: Completer.paths(startingWith: words.last ?? ""), suffix: "") : MetaCompletions(candidates: ["--all"])
    }

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        let all = call.arguments.contains { $0.value == "--all" }
        let files = call.arguments.filter { $0.value != "--all" }
        guard files.count == 1, let file = files.first else {
            return session.fail(
                ":save needs one file name (and --all to keep the commands that failed too)",
                column: files.dropFirst().first?.column ?? call.name.column, in: call)
        }
        let record = session.log.record
        do {
            try await session.host.write(record.saved(cluster: session.cluster.name, all: all), to: file.value)
        } catch {
            return session.fail(error.message, column: file.column, in: call)
        }
        let count = record.count(all: all)
        if !session.options.printing.quiet {
            let dropped =
                record.dropped > 0 ? " (the first \(record.dropped) were dropped: --history-limit \(session.options.history.limit))" : ""
            session.renderer.log("saved \(count) command\(count == 1 ? "" : "s") to \(file.value)" + dropped)
        }
        return .succeeded
    }
}
