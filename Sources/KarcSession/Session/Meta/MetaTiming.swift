import KarcOutput

/// `:timing [on|off]`: whether each command's time is printed after it; without an argument, which.
enum MetaTiming: MetaCommand {
    static let name = "timing"
    static let arguments = "[on|off]"
    static let summary = "print how long each command took (no argument: whether it does)"

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: ["on", "off"]) : nil
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let argument = call.arguments.first else {
            context.renderer.setting(setting(context.renderer.showsTiming))
            return .succeeded
        }
        switch argument.value.lowercased() {
        case "on": context.renderer.showsTiming = true
        case "off": context.renderer.showsTiming = false
        default: return context.fail("expected :timing on or :timing off, got '\(argument.value)'", column: argument.column, in: call)
        }
        if let extra = call.arguments.dropFirst().first { return context.fail(":timing takes one argument", column: extra.column, in: call) }
        context.confirm(setting(context.renderer.showsTiming))
        return .succeeded
    }

    private static func setting(_ on: Bool) -> OutputEvent.Setting {
        OutputEvent.Setting(
            name: name, value: on ? "on" : "off",
            text: on ? "timing on: each command's time is printed after it" : "timing off: commands' times are not printed (:timing on)")
    }
}

extension MetaContext {
    /// Says a setting changed, unless `--quiet`.
    func confirm(_ setting: OutputEvent.Setting) {
        if !options.printing.quiet { renderer.setting(setting) }
    }
}
