import KarcOutput

/// `:trace [on|off|N|last]`: each command's causal tree under its output
/// (`on`), or the tree of command N of `:history` (or the last send's).
enum MetaTrace: MetaCommand {
    static let name = "trace"
    static let arguments = "[on|off|N|last]"
    static let summary = "print each command's causal tree (on/off), or command N's (:history numbers)"
    static let details = [
        ":trace on       after each command: the sends it caused, what each did, how long each took",
        ":trace off      stop printing trees (they are still kept: :trace N prints one)",
        ":trace 3        the tree of command 3 of :history (a send)",
        ":trace last     the tree of the last send",
        ":trace          whether trees are printed",
        "A tree is one line a hop: a send (target.command, outcome, time), and under it its events, changes,",
        "redirects and the sends it caused. Work that comes after the command ended (a reply a tick later)",
        "is marked late, and with :trace on is printed under its cause when it comes.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: ["on", "off", "last"]) : nil
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let argument = call.arguments.first else {
            context.renderer.setting(setting(context.renderer.showsTraces))
            return .succeeded
        }
        if let extra = call.arguments.dropFirst().first { return context.fail(":trace takes one argument", column: extra.column, in: call) }
        let value = argument.value.lowercased()
        switch value {
        case "on", "off":
            context.renderer.showsTraces = value == "on"
            context.confirm(setting(context.renderer.showsTraces))
            return .succeeded
        case "last":
            // The line running now is numbered too: the last send is the newest traced command before it.
            guard let last = context.traces.tracedCommands.last else {
                return context.fail("no command has a trace yet: :trace last prints the last send's", column: argument.column, in: call)
            }
            context.printTrace(ofCommand: last)
            return .succeeded
        default:
            guard let number = Int(value), number > 0 else {
                return context.fail(
                    "expected :trace on, off, last or a command's number (:history), got '\(argument.value)'", column: argument.column, in: call)
            }
            guard context.printTrace(ofCommand: number) else {
                return context.fail(missing(number, in: context), column: argument.column, in: call)
            }
            return .succeeded
        }
    }

    /// Why command `number` has no tree, and which commands have one.
    private static func missing(_ number: Int, in context: MetaContext) -> String {
        let traced = context.traces.tracedCommands
        let which = traced.isEmpty ? "no command has one yet" : "commands with one: " + ranges(traced)
        guard number <= context.log.history.total else {
            return "there is no command \(number) yet (:history lists them); \(which)"
        }
        let line = context.log.history.entry(number)?.line.trimmingCharacters(in: .whitespaces)
        if let dropped = context.traces.droppedCommand, number <= dropped, line.map({ !$0.hasPrefix(":") }) ?? true {
            return "command \(number)'s trace was not kept: the session keeps its last \(context.traces.hopBudget) hops; \(which)"
                + " (:trace on prints each command's tree as it runs, and :history keeps it with the output)"
        }
        return "command \(number) has no trace (only sends have one); \(which)"
    }

    /// `1-3, 5, 8-9`.
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var start: Int?
        var previous: Int?
        for number in numbers + [Int.max] {
            if let p = previous, number == p + 1 {
                previous = number
                continue
            }
            if let s = start, let p = previous { parts.append(s == p ? "\(s)" : "\(s)-\(p)") }
            (start, previous) = (number, number)
        }
        return parts.joined(separator: ", ")
    }

    private static func setting(_ on: Bool) -> OutputEvent.Setting {
        OutputEvent.Setting(
            name: name, value: on ? "on" : "off",
            text: on
                ? "trace on: each command's causal tree is printed after it" : "trace off: trees are not printed (:trace N prints command N's)")
    }
}
