import KarcHistory
import KarcOutput

/// `:snapshots`: the snapshots kept, with when and their size.
enum MetaSnapshots: MetaCommand {
    static let name = "snapshots"
    static let arguments = ""
    static let summary = "list the snapshots kept, with when each was taken and its size"

    static func run(_ call: MetaCall, in session: ShellSession) async -> ShellSession.Outcome {
        if let extra = call.arguments.first { return session.fail(":snapshots takes no arguments", column: extra.column, in: call) }
        session.renderer.emit(.snapshots(session.snapshots.named.map(session.info), kept: false))
        return .succeeded
    }
}
