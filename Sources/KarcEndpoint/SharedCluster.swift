import KarcSession

/// The cluster as one attached shell drives it: its sends are counted in
/// the endpoint's ``ShellActivity``, so that a change none of its commands
/// made says whether another shell's command or the app made it (a guess
/// from timing: two shells' commands at once are told apart only by the
/// cause each record carries, which the shell does not have yet).
final class SharedCluster: ClusterWrapper {
    let base: any ShellCluster
    private let activity: ShellActivity

    private let id: Int

    init(base: any ShellCluster, activity: ShellActivity) {
        self.base = base
        self.activity = activity
        id = activity.newShell()
    }

    deinit {
        activity.left(id)
    }

    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
        activity.began(id)
        defer { activity.ended(id) }
        return try await base.send(command, to: target)
    }

    var changesFromElsewhere: String {
        activity.othersActive(besides: id) ? "another shell" : base.changesFromElsewhere
    }
}
