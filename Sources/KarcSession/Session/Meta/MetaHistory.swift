import Foundation

/// `:history [n]`: the command lines run this session (the last `n`),
/// numbered as they ran, with their outcome.
enum MetaHistory: MetaCommand {
    static let name = "history"
    static let arguments = "[n]"
    static let summary = "the commands run this session, numbered, with their outcome"
    static let details = [
        ":history      every command kept (--history-limit), sends and meta commands",
        ":history 10   the last ten",
        "Numbers count from the session's start, also past those dropped; --json gives each command's number as seq.",
    ]

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        let history = session.log.history
        // This `:history` line is running: it is not history yet.
        var entries = history.entries[...]
        if let last = entries.last, last.outcome == nil, history.total == session.renderer.seq { entries = entries.dropLast() }
        var count = entries.count
        if let argument = call.arguments.first {
            guard let n = Int(argument.value), n > 0 else {
                return session.fail("expected a number of commands (like :history 10), got '\(argument.value)'", column: argument.column, in: call)
            }
            count = min(n, entries.count)
        }
        let first = entries.count - count
        // Numbered as they ran, counting those dropped by --history-limit.
        for (index, entry) in entries.dropFirst(first).enumerated() {
            session.renderer.emit(.historyEntry(number: history.dropped + first + index + 1, entry))
        }
        return .succeeded
    }
}
