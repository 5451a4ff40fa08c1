import KarcOutput

/// `:diff [on|off|summary]`: how changes of state print; without an argument, how they do.
enum MetaDiff: MetaCommand {
    static let name = "diff"
    static let arguments = "[on|off|summary]"
    static let summary = "how changes of state print: diffs, nothing, a line a target"
    static let details = [
        ":diff on        each changed target's state, before against after, as a diff (the default)",
        ":diff summary   one line a changed target: how many of its parts changed",
        ":diff off       nothing (replies, events and errors still print)",
        ":diff           which of these is on",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: DiffMode.allCases.map(\.rawValue)) : nil
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let argument = call.arguments.first else {
            context.renderer.setting(setting(context.renderer.diffMode))
            return .succeeded
        }
        guard let mode = DiffMode(rawValue: argument.value.lowercased()) else {
            return context.fail("expected :diff on, :diff off or :diff summary, got '\(argument.value)'", column: argument.column, in: call)
        }
        if let extra = call.arguments.dropFirst().first { return context.fail(":diff takes one argument", column: extra.column, in: call) }
        context.options.printing.diff = mode
        context.renderer.diffMode = mode
        context.confirm(setting(mode))
        return .succeeded
    }

    private static func setting(_ mode: DiffMode) -> OutputEvent.Setting {
        let text =
            switch mode {
            case .full: "diff on: changes of state print as diffs"
            case .summary: "diff summary: a changed target prints one line, with how many of its parts changed"
            case .off: "diff off: changes of state are not printed (:diff on)"
            }
        return OutputEvent.Setting(name: name, value: mode.rawValue, text: text)
    }
}
