import KarcHistory
import KarcLanguage
import KarcTrace

/// What a session learns of its cluster once, when it starts: what it can
/// do beyond sending (from its type), how its commands are built and how a
/// trace names its sends (from its catalog).
struct ClusterFacts {
    let capabilities: ShellClusterCapabilities
    let builder: CommandBuilder
    let names: CommandNames
    /// A command of this cluster's, as an error shows one (`cart.add`).
    let example: String

    init(_ cluster: any ShellCluster) {
        capabilities = ShellClusterCapabilities(cluster)
        builder = CommandBuilder(catalog: cluster.catalog)
        names = CommandNames(catalog: cluster.catalog)
        example = cluster.catalog.exampleCommand
    }
}

/// Where a session's lines come from (a prompt or scripts, and how deep
/// `:source` nests) and where its files and pager go.
struct SessionIO {
    let host: any ShellHost
    /// What `:save`, `:snapshot save`, `:export-test` and `:export-diagram` wrote: the files they may replace without `--force`.
    var written = WrittenFiles()
    /// At a prompt: `:source` echoes the commands it runs, as `--echo` does.
    var isInteractive = false
    /// A line from the inspector's page runs: its output goes above the line
    /// being typed, never to the pager (which would take the terminal).
    var runsPageLine = false
    /// Whether a long text may open the pager: at a prompt, for a line typed there.
    var mayPage: Bool { isInteractive && !runsPageLine }
    /// `:source` nesting, bounded so a script that sources itself stops.
    var sourceDepth = 0
}

/// What a session keeps of its cluster's states, each bounded: every change
/// as the parts it changed (`:blame`), the parts watched (`:watch`), and
/// named snapshots with the states before the last commands (`:snapshot`,
/// `:restore`, `:undo`).
struct StateHistory {
    var changes: ChangeHistory
    var watches = Watches()
    var snapshots = Snapshots()

    init(limit: Int) {
        changes = ChangeHistory(limit: limit)
    }
}
