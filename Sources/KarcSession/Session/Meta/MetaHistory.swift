import Foundation

/// `:history [n]`: the commands sent this session (the last `n`), numbered
/// as they were sent, with their outcome.
enum MetaHistory: MetaCommand {
    static let name = "history"
    static let arguments = "[n]"
    static let summary = "the commands sent this session, with their outcome"

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        let history = session.log.history
        var count = history.count
        if let argument = call.arguments.first {
            guard let n = Int(argument.value), n > 0 else {
                return session.fail("expected a number of commands (like :history 10), got '\(argument.value)'", column: argument.column, in: call)
            }
            count = min(n, history.count)
        }
        let first = history.count - count
        // Numbered as they were sent, counting those dropped by --history-limit.
        for (index, entry) in history.entries.dropFirst(first).enumerated() {
            session.renderer.log(
                String(format: "%5d  %@  %@", history.dropped + first + index + 1, entry.outcome == "ok" ? "ok   " : "error", entry.line))
        }
        return .succeeded
    }
}
