import KarcOutput

/// `:restore NAME`: puts back the states a snapshot kept, through the
/// cluster, and prints the changes as a command's.
enum MetaRestore: MetaCommand {
    static let name = "restore"
    static let arguments = "NAME"
    static let summary = "put back the states a snapshot kept, printing what changed"
    static let details = [
        ":restore before-login     every target the snapshot kept takes its state back (value stores, Karc models, Restorable models)",
        "Each state is checked first: nothing changes unless all can be restored. :undo goes back to before it.",
        "What the cluster did outside itself (a message sent, a file written) is not undone.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: context.snapshots()) : nil
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let argument = call.arguments.first else {
            return context.fail(":restore needs a snapshot's name: :restore before-login (:snapshots lists them)", in: call)
        }
        if let extra = call.arguments.dropFirst().first { return context.fail(":restore takes one name", column: extra.column, in: call) }
        guard let kept = context.keptSnapshot(argument, in: call) else { return .failed }
        guard await context.restore(kept.states, undoing: false, in: call) else { return .failed }
        context.renderer.emit(.restored(.init(name: kept.name, undone: [], targets: kept.states.keys.sorted(), left: kept.left)))
        return .succeeded
    }
}
