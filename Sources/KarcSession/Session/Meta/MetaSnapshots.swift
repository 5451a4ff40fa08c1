import KarcHistory
import KarcOutput

/// `:snapshots`: the snapshots kept, with when and their size.
enum MetaSnapshots: MetaCommand {
    static let name = "snapshots"
    static let arguments = ""
    static let summary = "list the snapshots kept, with when each was taken and its size"

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        if let extra = call.arguments.first { return context.fail(":snapshots takes no arguments", column: extra.column, in: call) }
        context.renderer.emit(.snapshots(context.states.snapshots.named.map(context.info), kept: false))
        return .succeeded
    }
}
