import Foundation
import KarcOutput

/// `:history [N | last n | /REGEX/ | output /REGEX/ | target NAME | failed]`:
/// the command lines run this session, numbered as they ran, with their
/// outcome; one with what it printed; or those a filter keeps.
enum MetaHistory: MetaCommand {
    static let name = "history"
    static let arguments = "[N | filter]"
    static let summary = "the commands run this session, numbered, with their outcome; one again with its output; or a filter's"
    static let details = [
        ":history                  every command kept (--history-limit), sends and meta commands",
        ":history 12               command 12 with what it printed (reply, events, diffs, its trace), and what came for it later",
        ":history last 10          the last ten",
        ":history /like|remove/    those whose command line matches a regular expression (case-insensitive)",
        ":history output /Dune/    those whose output (reply, events, diffs, error) matches one",
        ":history target articles  those that sent to a target or changed its state",
        ":history failed           those that failed",
        "Numbers count from the session's start, also past those dropped; --json gives each command's number as seq.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        switch position {
        case 0: MetaCompletions(candidates: ["last", "output", "target", "failed"])
        case 1 where words[0] == "target": MetaCompletions(candidates: context.targetNames)
        default: nil
        }
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        let history = context.log.history
        // This `:history` line is running: it is not history yet.
        var entries = history.entries[...]
        if let last = entries.last, last.outcome == nil, history.total == context.renderer.seq { entries = entries.dropLast() }
        let numbered = entries.enumerated().map { (number: history.dropped + $0.offset + 1, entry: $0.element) }
        let arguments = call.arguments
        let kept: [(number: Int, entry: HistoryEntry)]
        switch arguments.first?.value {
        case nil:
            kept = numbered
        case let first? where Int(first) != nil:
            if let extra = arguments.dropFirst().first { return context.fail(":history N takes nothing after N", column: extra.column, in: call) }
            return one(Int(first) ?? 0, in: numbered, dropped: history.dropped, call: call, context: context)
        case "last":
            guard let count = arguments.dropFirst().first, let n = Int(count.value), n > 0 else {
                return context.fail(
                    "expected a number of commands after last (like :history last 10)", column: arguments.dropFirst().first?.column, in: call)
            }
            kept = Array(numbered.suffix(n))
        case "failed":
            kept = numbered.filter { $0.entry.outcome == .failed || $0.entry.outcome == .interrupted }
        case "target":
            guard let name = arguments.dropFirst().first else { return context.fail("expected a target after :history target", in: call) }
            let target: String
            do {
                target = try context.builder.resolveTarget(name).name
            } catch {
                return context.fail(error.message, column: error.column, in: call)
            }
            kept = numbered.filter { $0.entry.targets.contains(target) }
        // The line, as a shell's history search does: a command's output matching (its error listing
        // every command, say) would bury the commands sought. `output` searches that instead.
        case let first? where first.hasPrefix("/"):
            guard let expression = expression(arguments[...], call: call, context: context) else { return .failed }
            kept = numbered.filter { matches(expression, $0.entry.line) }
        case "output":
            guard arguments.count > 1 else {
                return context.fail("expected a /REGEX/ after :history output (like :history output /Dune/)", column: arguments[0].column, in: call)
            }
            guard let expression = expression(arguments.dropFirst(), call: call, context: context) else { return .failed }
            kept = numbered.filter { matches(expression, $0.entry.output.output) }
        case let first?:
            return context.fail(
                "expected a command's number, last n, /REGEX/, output /REGEX/, target NAME or failed after :history, got '\(first)'",
                column: arguments[0].column, in: call)
        }
        // A filter that keeps nothing says so: an empty answer reads as a command that did nothing.
        // (Not the filter again: `:history output /x/` would find this line.)
        if kept.isEmpty, !call.arguments.isEmpty {
            context.renderer.log("no command matches (of the \(Names.counted(numbered.count, "command")) this session keeps)")
        }
        for (number, entry) in kept { context.renderer.emit(.historyEntry(number: number, entry, full: false)) }
        return .succeeded
    }

    /// `:history N`: command N again, with its output.
    private static func one(
        _ number: Int, in numbered: [(number: Int, entry: HistoryEntry)], dropped: Int, call: MetaCall, context: MetaContext
    ) -> CommandOutcome {
        guard let found = numbered.first(where: { $0.number == number }) else {
            let kept = numbered.isEmpty ? "none is" : "#\(numbered[0].number)–#\(numbered[numbered.count - 1].number) are"
            let why = number <= dropped && number > 0 ? "was dropped (--history-limit)" : "does not exist"
            return context.fail("command \(number) \(why); of this session's commands \(kept) kept", column: call.arguments[0].column, in: call)
        }
        context.renderer.emit(.historyEntry(number: found.number, found.entry, full: true))
        return .succeeded
    }

    /// The regular expression `words` write between slashes (spaces and all), or nil after saying what is wrong.
    private static func expression(_ words: ArraySlice<Located<String>>, call: MetaCall, context: MetaContext) -> NSRegularExpression? {
        let text = words.map(\.value).joined(separator: " ")
        let column = words.first?.column ?? call.column
        guard text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") else {
            _ = context.fail("a pattern is written between slashes: :history /like|remove/", column: column, in: call)
            return nil
        }
        let pattern = String(text.dropFirst().dropLast())
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            _ = context.fail("not a regular expression: \(pattern)", column: column + 1, in: call)
            return nil
        }
        return expression
    }

    private static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
