import ArgumentParser
import KarcSession

/// A program that is the shell in front of its own cluster, with every flag
/// of `karc` (`-e`, FILE, `--json`, `--echo`, `--keep-going`, `--timeout`,
/// …), its subcommands (`check`, `export-test`, `export-diagram`,
/// `explore`) and its exit statuses. For a Trellis cluster,
/// `KarcShellTrellis`'s `TrellisShellApp` takes the `Cluster` itself:
///
/// ```swift
/// struct Shop: TrellisShellApp {
///     static let name = "shop"
///     static func cluster(for launch: ClusterLaunch<Shop>) async throws -> Cluster {
///         try await Bootstrap { … }
///     }
/// }
/// await Shop.main()
/// ```
///
/// The cluster is made after the arguments are parsed (so `--help` builds
/// nothing) and its `shutDown()` is called when the shell ends.
/// ``Arguments`` are options of your own that every use of the cluster
/// reads; ``LiveArguments`` are those only the live cluster takes (the
/// shell's, not the fresh ones the tools make), so `check --help` lists
/// none of them. The type itself is used from the tasks that make its
/// clusters (`SendableMetatype`): declare it without a global actor.
public protocol ShellApp: SendableMetatype {
    /// Options of the app's own that every cluster it makes reads (`--tick`).
    associatedtype Arguments: ParsableArguments & Sendable = NoArguments
    /// Options of the live cluster alone (`--state-dir`, `--fresh`): the
    /// shell's and your own subcommands', never a tool's fresh cluster.
    associatedtype LiveArguments: ParsableArguments & Sendable = NoArguments

    /// The command's name, and the cluster's in the prompt and the history file's name.
    static var name: String { get }
    /// `--help`'s first line.
    static var abstract: String { get }
    /// What `--help` says after the abstract (by default: how commands are
    /// read); the exit statuses follow it.
    static var discussion: String { get }
    /// What `--version` prints (none by default: no `--version`).
    static var version: String { get }
    /// How a test `:export-test` and `export-test` write makes its cluster,
    /// unless `--test-factory` says otherwise.
    static var testExport: TestExportOptions { get }
    /// Subcommands of your own beside the shell's (`karc serve`, `karc attach`).
    static var subcommands: [any ParsableCommand.Type] { get }

    /// The cluster for `launch.use`, made with the options given.
    static func shellCluster(for launch: ClusterLaunch<Self>) async throws -> any ShellCluster
}

extension ShellApp {
    public static var abstract: String { "Drive the \(name) cluster: send typed commands, see replies, events and state diffs." }

    public static var discussion: String {
        """
        With no FILE and no -e, reads commands from standard input: a prompt on a \
        terminal, a script otherwise. Commands are TARGET.COMMAND field=value …; \
        :help lists them.
        """
    }

    public static var version: String { "" }

    public static var testExport: TestExportOptions { TestExportOptions() }

    public static var subcommands: [any ParsableCommand.Type] { [] }

    /// Parses the command line and runs the shell or the subcommand it names; exits with its status.
    public static func main() async {
        await ShellRootCommand<Self>.main()
    }
}

/// What a ``ShellApp`` makes a cluster with: what for, and the options given.
public struct ClusterLaunch<App: ShellApp>: Sendable {
    /// The shell, or one of the tools' fresh runs.
    public let use: ShellClusterUse
    /// The app's own options.
    public let arguments: App.Arguments
    /// The live cluster's options: given for the shell, nil for a tool's fresh cluster.
    public let live: App.LiveArguments?

    /// A launch for `use` with these options (a subcommand of the app's own makes its cluster so).
    public init(use: ShellClusterUse, arguments: App.Arguments, live: App.LiveArguments?) {
        self.use = use
        self.arguments = arguments
        self.live = live
    }
}

/// No options beyond the shell's.
public struct NoArguments: ParsableArguments, Sendable {
    public init() {}
}
