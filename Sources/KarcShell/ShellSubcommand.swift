import ArgumentParser
import KarcExplore

/// A subcommand `Shell.main(name:…subcommands:arguments:shellCluster:)`
/// runs beside `check` and `export-test` (`karc serve`, `karc attach`):
/// `NAME SUBCOMMAND …` runs it with the arguments after its name.
public struct ShellSubcommand: Sendable {
    /// The word that selects it.
    public let name: String
    let run: @Sendable ([String]) async -> Void
    /// What the shell's `--help` says of it: its command's abstract.
    let abstract: @Sendable () -> String

    /// `command`, selected by `name`; its own configuration gives its help.
    public init<Command: AsyncParsableCommand>(_ name: String, _ command: Command.Type) {
        self.name = name
        run = { await Command.main($0) }
        abstract = { Command.configuration.abstract }
    }
}

/// What `Shell.main(name:…subcommands:arguments:shellCluster:)`
/// makes a cluster for.
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
}
