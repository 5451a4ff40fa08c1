import KarcOutput

/// `:quit` (`:exit`, `:q`; Ctrl-D too): leaves the shell.
enum MetaQuit: MetaCommand {
    static let name = "quit"
    static let aliases = ["exit", "q"]
    static let arguments = ""
    static let summary = "leave the shell (also :exit, :q, Ctrl-D)"
    static let details = [
        "Leaves with status 0, or 1 when a command of a script failed."
    ]
    /// A replay that quits would stop before the lines after it.
    static let isReplayed = false

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        if let extra = call.arguments.first {
            return context.fail(":\(call.name.value) takes no arguments, got '\(extra.value.clipped)'", in: call)
        }
        return .quit
    }
}
