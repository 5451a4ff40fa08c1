import KarcExplore

/// What a ``ShellApp`` makes a cluster for.
public enum ShellClusterUse: Sendable, Equatable {
    /// The shell: the prompt, `-e` commands or a script.
    case shell
    /// One transcript of `check`: a fresh cluster each, which should leave nothing behind.
    case check
    /// The script `export-test` replays: a fresh cluster, as the test's will be.
    case exportTest
    /// The script `export-diagram` runs to draw its flow: a fresh cluster.
    case exportDiagram
    /// One sequence of `explore`: a fresh cluster whose timers wait on
    /// `clock`, which moves on between commands (`--advance`), so a sequence
    /// replays the same way.
    case explore(clock: ExploreClock)

    /// Whether the cluster is the live one (the shell's), not a fresh one for a tool.
    public var isLive: Bool { self == .shell }
}
