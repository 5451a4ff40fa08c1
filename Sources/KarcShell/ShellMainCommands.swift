import ArgumentParser
import KarcExplore
import KarcScriptTools
import KarcSession

/// What one `Shell.main` call configures its commands with: ArgumentParser
/// reads a command's configuration from its type, so the call hands it
/// over in a task-local, seen only by the commands that call runs.
struct ShellMainSetUp: Sendable {
    var name: String
    var abstract: String
    var discussion: String
    var version: String
    var testExport: TestExportOptions
    var make: @Sendable (_ arguments: any Sendable, _ use: ShellClusterUse) async throws -> any ShellCluster

    @TaskLocal static var current: ShellMainSetUp?

    static func discussion(name: String) -> String {
        """
        With no FILE and no -e, reads commands from standard input: a prompt on a \
        terminal, a script otherwise. Commands are TARGET.COMMAND field=value …; \
        :help lists them.
        """
    }

    /// The paragraph that ends every `Shell.main` app's `--help`, after the
    /// default discussion or the app's own: the statuses a script exits with.
    static let exitStatuses = """
        Exit status: 0 when every command succeeded, 1 otherwise; 64 for bad \
        command-line arguments; 130, 143 or 129 when SIGINT, SIGTERM or SIGHUP ended a script.
        """

    /// `--help`'s last section, as ArgumentParser lays out its own: each
    /// subcommand with its abstract in a column, wrapped to `columns`.
    static func subcommandsSection(name: String, _ entries: [(name: String, abstract: String)], columns: Int) -> String {
        let indent = 26
        var text = "\nSUBCOMMANDS:\n"
        for entry in entries {
            var line = "  " + entry.name
            line += entry.name.count + 2 < indent ? String(repeating: " ", count: indent - line.count) : "\n" + String(repeating: " ", count: indent)
            var width = indent
            for word in entry.abstract.split(separator: " ") {
                if width > indent, width + 1 + word.count > columns {
                    line += "\n" + String(repeating: " ", count: indent)
                    width = indent
                } else if width > indent {
                    line += " "
                    width += 1
                }
                line += word
                width += word.count
            }
            text += line + "\n"
        }
        return text + "\n  See '\(name) SUBCOMMAND --help' for its options.\n"
    }

    /// A command's configuration, its name after the shell's.
    static func configuration(_ subcommand: String?, abstract: (ShellMainSetUp) -> String, discussion: (ShellMainSetUp) -> String)
        -> CommandConfiguration
    {
        guard let setUp = current else { return CommandConfiguration() }
        return CommandConfiguration(
            commandName: setUp.name + (subcommand.map { " " + $0 } ?? ""), abstract: abstract(setUp), discussion: discussion(setUp),
            version: subcommand == nil ? setUp.version : "")
    }
}

/// The shell itself: its flags, and the embedding's own `Arguments`.
struct MainCommand<Arguments: ParsableArguments & Sendable>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        ShellMainSetUp.configuration(nil, abstract: \.abstract, discussion: \.discussion)
    }

    @OptionGroup var shell: ShellArguments
    @OptionGroup var arguments: Arguments

    func run() async throws {
        guard let setUp = ShellMainSetUp.current else { throw ExitCode.failure }
        let cluster = try await setUp.make(arguments, .shell)
        var options = shell.options
        options.testExport = shell.testExport(over: setUp.testExport)
        let status = await Shell.run(cluster, options: options, commands: shell.commands, script: shell.file)
        await cluster.shutDown()
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME check FILE…`: the transcripts, each against a fresh cluster.
struct CheckCommand<Arguments: ParsableArguments & Sendable>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        ShellMainSetUp.configuration(
            "check",
            abstract: { "Run transcripts against a fresh \($0.name) cluster each and compare what each command prints with the #= lines under it." },
            discussion: { _ in CheckArguments.discussion })
    }

    @OptionGroup var check: CheckArguments
    @OptionGroup var arguments: Arguments

    func run() async throws {
        guard let setUp = ShellMainSetUp.current else { throw ExitCode.failure }
        let arguments = self.arguments
        let status = await Shell.check(
            check.files, update: check.update, timeout: check.timeout.duration, testExport: setUp.testExport, interrupts: .signals
        ) {
            try await setUp.make(arguments, .check)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME export-test SCRIPT`: the script against a fresh cluster, written as a Swift test.
struct ExportTestCommand<Arguments: ParsableArguments & Sendable>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        ShellMainSetUp.configuration(
            "export-test",
            abstract: {
                "Run a script against a fresh \($0.name) cluster and write it as a Swift Testing test that replays it (TrellisTesting's ClusterTestStore)."
            },
            discussion: { setUp in
                ExportTestArguments.discussion
                    + (setUp.testExport.factory.map { " Here the test makes its cluster with `\($0)`, unless told otherwise." } ?? "")
            })
    }

    @OptionGroup var export: ExportTestArguments
    @OptionGroup var arguments: Arguments

    func run() async throws {
        guard let setUp = ShellMainSetUp.current else { throw ExitCode.failure }
        let arguments = self.arguments
        let status = await Shell.exportTest(
            export.script, output: export.output, name: export.name, options: export.options(over: setUp.testExport),
            timeout: export.timeout.duration, interrupts: .signals
        ) {
            try await setUp.make(arguments, .exportTest)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME export-diagram SCRIPT`: the script against a fresh cluster, its flow written as a Mermaid sequence diagram.
struct ExportDiagramCommand<Arguments: ParsableArguments & Sendable>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        ShellMainSetUp.configuration(
            "export-diagram",
            abstract: {
                "Run a script against a fresh \($0.name) cluster and write its flow as a Mermaid sequence diagram (Markdown that GitHub draws)."
            },
            discussion: { _ in ExportDiagramArguments.discussion })
    }

    @OptionGroup var export: ExportDiagramArguments
    @OptionGroup var arguments: Arguments

    func run() async throws {
        guard let setUp = ShellMainSetUp.current else { throw ExitCode.failure }
        let arguments = self.arguments
        let status = await Shell.exportDiagram(
            export.script, output: export.output, commands: export.commands, timeout: export.timeout.duration, interrupts: .signals
        ) {
            try await setUp.make(arguments, .exportDiagram)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `export-diagram`'s flags: the script, where to write, which commands.
struct ExportDiagramArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The script whose flow to draw.", valueName: "SCRIPT"))
    var script: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the diagram (default: standard output).", valueName: "FILE.md"))
    var output: String?

    // `.unconditional`: `--commands -1` is a range to refuse with a reason, not a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Which commands' flows, by their number in the script's :history: N or N-M (default: all).", valueName: "RANGE"))
    var commands: String?

    @Option(help: ArgumentHelp("How long a command may keep the cluster busy (250ms, 5s, 1m).", valueName: "DURATION"))
    var timeout = DurationArgument(.seconds(5))

    static let discussion = """
        Each send the script makes is an arrow from the shell to its target, each send it causes an arrow \
        between targets, replies and failures arrows back; events, changes of state and redirects are notes \
        on their lifeline. The file is written whole or not at all.
        """
}

/// `NAME explore`: generated command sequences against fresh clusters, the first failure shrunk.
struct ExploreCommand<Arguments: ParsableArguments & Sendable>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        ShellMainSetUp.configuration(
            "explore",
            abstract: {
                "Send generated command sequences to fresh \($0.name) clusters until one breaks an invariant, hangs, crashes or fails with a bug's error, then shrink it to a script."
            },
            discussion: { _ in ExploreArguments.discussion })
    }

    @OptionGroup var explore: ExploreArguments
    @OptionGroup var arguments: Arguments

    func run() async throws {
        guard let setUp = ShellMainSetUp.current else { throw ExitCode.failure }
        let arguments = self.arguments
        let make: InProcessExplore.MakeCluster = { clock in try await setUp.make(arguments, .explore(clock: clock)) }
        if explore.worker {
            _ = await Shell.exploreWorker(resultFD: 3, settings: explore.stepSettings, cluster: make)
            return
        }
        let status = await Shell.explore(
            name: setUp.name, explore: explore, testExport: setUp.testExport,
            workerArguments: ["explore"] + Array(CommandLine.arguments.dropFirst(2)) + ["--worker"],
            commandLine: ExploreCommandLine(Array(CommandLine.arguments.dropFirst(2))), cluster: make)
        if status != 0 { throw ExitCode(status) }
    }
}
