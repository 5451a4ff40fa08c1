import KarcOutput

/// `:seq [N | N-M]`: the flow of a command (the last send's, or N's, or
/// N to M's) as a sequence diagram in the terminal.
enum MetaSeq: MetaCommand {
    static let name = "seq"
    static let arguments = "[N | N-M]"
    static let summary = "the last command's flow (or N's, or N to M's) as a sequence diagram"
    static let details = [
        ":seq          the last send's flow: a lifeline a target (and the shell), arrows in the order they happened",
        ":seq 3        command 3's (:history numbers)",
        ":seq 3-7      commands 3 to 7's, one after another",
        "Sends are arrows (─▶), replies and failures dashed arrows back (◀╌), events, changes and redirects",
        "marks (●) on their lifeline; late work is marked (late). It fits the terminal; text too long is cut with ….",
        ":export-diagram FILE.md writes the same as a Mermaid diagram.",
    ]

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        if let extra = call.arguments.dropFirst().first { return context.fail(":seq takes one argument", column: extra.column, in: call) }
        switch context.flow(call.arguments.first, for: ":seq") {
        case .failure(let problem): return context.fail(problem.message, column: problem.column, in: call)
        case .success(let flow):
            context.renderer.sequence(flow.diagram, commands: flow.commands)
            return .succeeded
        }
    }
}
