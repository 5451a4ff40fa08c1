import KarcOutput

/// `:save [--force] FILE [--with-failures]`: this session's commands that
/// succeeded (or all) as a script that replays it, as `--record` keeps them.
/// A file there that this session did not write is not replaced without `--force`.
enum MetaSave: MetaCommand {
    static let name = "save"
    static let arguments = "FILE [--with-failures]"  // and --force (details): the synopsis fits :help's column
    static let summary = "write this session's commands that succeeded (or all) as a script"
    static let details = [
        ":save session.karc          the commands that succeeded, as a script (karc session.karc replays it)",
        ":save session.karc --with-failures    the failed ones too (--record FILE --with-failures keeps them too)",
        ":save --force session.karc  replace a file this session did not write (else it is kept, and nothing is written)",
    ]
    /// A replay would overwrite the script it runs from.
    static let isReplayed = false

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        .file(at: position, of: words, flags: ["--force", "--with-failures"])
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        // `--all`: the flag's first name, still taken.
        let flags = ["--with-failures", "--all", "--force"]
        let all = call.arguments.contains { ["--with-failures", "--all"].contains($0.value) }
        let force = call.arguments.contains { $0.value == "--force" }
        let files = call.arguments.filter { !flags.contains($0.value) }
        guard files.count == 1, let file = files.first else {
            return context.fail(
                ":save needs one file name (and --with-failures to keep the commands that failed too)",
                column: files.dropFirst().first?.column ?? call.name.column, in: call)
        }
        let record = context.log.record
        let replace = ":save --force " + ([file.value] + (all ? ["--with-failures"] : [])).joined(separator: " ")
        guard await context.write(record.saved(cluster: context.cluster.name, all: all), to: file, force: force, replace: replace, in: call)
        else { return .failed }
        let count = record.count(all: all)
        if !context.options.printing.quiet {
            let dropped =
                record.dropped > 0 ? " (the first \(record.dropped) were dropped: --history-limit \(context.options.history.limit))" : ""
            context.renderer.log("saved \(count) command\(count == 1 ? "" : "s") to \(file.value)" + dropped)
        }
        return .succeeded
    }
}
