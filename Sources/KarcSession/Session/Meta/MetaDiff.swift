/// `:diff on|off|summary`: how changes of state print.
enum MetaDiff: MetaCommand {
    static let name = "diff"
    static let arguments = "on|off|summary"
    static let summary = "how changes of state print: diffs, nothing, a line a target"

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: DiffMode.allCases.map(\.rawValue)) : nil
    }

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        guard let argument = call.arguments.first, let mode = DiffMode(rawValue: argument.value.lowercased()), call.arguments.count == 1 else {
            return session.fail("expected :diff on, :diff off or :diff summary", in: call)
        }
        session.options.printing.diff = mode
        session.renderer.diffMode = mode
        return .succeeded
    }
}
