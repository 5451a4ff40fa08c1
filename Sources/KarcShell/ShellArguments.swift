import ArgumentParser
import Foundation
import KarcInspector
import KarcSession

/// The shell's command-line flags, as `karc` has them: put them in your own
/// command with `@OptionGroup var shell: ShellArguments`, or let
/// a ``ShellApp`` parse them for you.
/// `--help` shows them in groups: how commands run, then output, history and
/// exported tests.
public struct ShellArguments: ParsableArguments {
    /// A script to run (- for standard input).
    @Argument(help: "A script to run (- for standard input).")
    public var file: String?

    /// Run a command (repeatable); with no FILE, exits after them.
    @Option(name: .customShort("e"), help: ArgumentHelp("Run a command (repeatable); with no FILE, exits after them.", valueName: "CMD"))
    public var commands: [String] = []

    /// Run no startup file before the prompt.
    @Flag(
        name: .customLong("no-rc"),
        help: "Run no startup file before the prompt (else $XDG_CONFIG_HOME/karc/karcrc, then NAME.karcrc for the cluster NAME, when they exist).")
    public var noRC = false

    /// Go on after a failed command (the exit status is still 1).
    @Flag(help: "Go on after a failed command (the exit status is still 1).")
    public var keepGoing = false

    /// How long a command may keep the cluster busy, and :wait's default (250ms, 5s, 1m).
    @Option(
        help: ArgumentHelp("How long a command may keep the cluster busy, and :wait's default (250ms, 5s, 1m).", valueName: "DURATION"),
        transform: DurationArgument.parse)
    public var timeout = DurationArgument(.seconds(5))

    /// How the output looks.
    @OptionGroup(title: "Output") public var output: OutputArguments

    /// What the session keeps of its commands.
    @OptionGroup(title: "History") public var history: HistoryArguments

    /// How `:export-test` writes a test.
    @OptionGroup(title: "Exported tests") public var exportedTests: ExportedTestArguments

    public init() {}

    /// The options these flags give (colour: on a terminal, unless `--no-color` or `NO_COLOR`).
    public var options: ShellOptions {
        var options = ShellOptions()
        options.keepGoing = keepGoing
        options.timeout = timeout.duration
        options.printing.json = output.json
        options.printing.jsonStates = output.jsonStates
        options.printing.echo = output.echo
        options.printing.quiet = output.quiet
        options.printing.trace = output.trace
        if output.noColor { options.printing.color = false }
        if output.noDiff { options.printing.diff = .off }
        options.history.file = history.historyFile
        options.history.limit = history.historyLimit
        options.history.recordFile = history.record
        options.history.recordsFailures = history.withFailures
        options.testExport = testExport(over: TestExportOptions())
        options.startupDirectory = noRC ? nil : StartupFiles.defaultDirectory()
        return options
    }

    /// `--test-factory` and `--test-import` over an embedding's defaults.
    public func testExport(over defaults: TestExportOptions) -> TestExportOptions {
        defaults.overridden(factory: exportedTests.testFactory, imports: exportedTests.testImport)
    }

    /// Runs the shell in front of `cluster` with these flags; the exit status.
    public func run(_ cluster: any ShellCluster) async -> Int32 {
        await run(cluster, options: options, inspect: false)
    }

    /// Runs the shell in front of `cluster` with `options` (these flags' over an app's defaults),
    /// inspected as `inspector`'s flags say (`--inspect`, `--inspect-port`).
    public func run(_ cluster: any ShellCluster, options: ShellOptions, inspector: InspectArguments) async -> Int32 {
        await run(cluster, options: options, inspect: inspector.isOn, inspectPort: inspector.inspectPort)
    }

    /// Runs the shell in front of `cluster` with `options` (these flags' over an app's defaults); with
    /// `inspect`, an inspector's front too, its URL on standard error (``InspectArguments``), on
    /// `inspectPort` of 127.0.0.1 (nil: any free one; `:inspect` uses it too).
    public func run(_ cluster: any ShellCluster, options: ShellOptions, inspect: Bool, inspectPort: Int? = nil) async -> Int32 {
        let inspector = InspectorStarter(port: inspectPort ?? 0)
        var fronts: [any SessionFront] = []
        if inspect {
            do {
                let started = try await inspector.start()
                fronts = started.front.map { [$0] } ?? []
                // On standard error: a script's output (standard output) stays what it was without the inspector.
                FileHandle.standardError.write(Data("inspector: \(started.url)\n".utf8))
            } catch {
                FileHandle.standardError.write(Data("error: the inspector could not start: \(error)\n".utf8))
                return 1
            }
        }
        let status = await Shell.run(cluster, options: options, commands: commands, script: file, inspector: inspector, fronts: fronts)
        await inspector.stop()
        return status
    }
}

/// `--inspect` and `--inspect-port`: the session in a browser (a local
/// session's; an attached shell's runs in the app, which serves its page).
/// Add it beside ``ShellArguments`` with `@OptionGroup var inspector:
/// InspectArguments` and run with ``ShellArguments/run(_:options:inspector:)``.
public struct InspectArguments: ParsableArguments {
    /// Serve a live inspector of the session on 127.0.0.1 and print its URL.
    @Flag(
        help: ArgumentHelp(
            "Serve a live inspector of this session on 127.0.0.1 and print its URL: the commands, replies, events and changes of state,"
                + " in a browser, as they happen (while a script runs faster, 1,000 messages a second: KARC_INSPECT_RATE sets it)."))
    public var inspect = false

    /// The inspector's port on 127.0.0.1 (implies `--inspect`); nil: any free port.
    @Option(
        name: .customLong("inspect-port"),
        help: ArgumentHelp(
            "Serve the inspector on this port of 127.0.0.1 (implies --inspect; without it, any free port): a port you forward ahead"
                + " (ssh -L PORT:127.0.0.1:PORT).", valueName: "PORT"))
    public var inspectPort: Int?

    /// Whether the session is inspected: `--inspect` or `--inspect-port`.
    public var isOn: Bool { inspect || inspectPort != nil }

    /// No inspector, unless `--inspect` or `--inspect-port` is given.
    public init() {}

    /// A port is 1 to 65535.
    public func validate() throws {
        try Self.validate(port: inspectPort)
    }

    /// `--inspect-port`'s check, for a command that has the option of its own (`karc serve`).
    package static func validate(port: Int?) throws {
        if let port, !(1...65_535).contains(port) {
            throw ValidationError("--inspect-port \(port) is not a port: give one from 1 to 65535, or leave it out for any free port")
        }
    }
}

/// How the shell's output looks (`karc --help`: OUTPUT).
public struct OutputArguments: ParsableArguments {
    /// Print one JSON object a line (see docs/shell.md).
    @Flag(help: "Print one JSON object a line (see docs/shell.md).")
    public var json = false

    /// With --json, state lines also carry the whole old and new states (beside the patch).
    @Flag(help: "With --json, state lines also carry the whole old and new states (beside the patch).")
    public var jsonStates = false

    /// Print each command before its output.
    @Flag(help: "Print each command before its output.")
    public var echo = false

    /// Never colour the output (NO_COLOR does the same).
    @Flag(help: "Never colour the output (NO_COLOR does the same).")
    public var noColor = false

    /// Leave out the banner and notices.
    @Flag(help: "Leave out the banner and notices.")
    public var quiet = false

    /// Print no diffs of state (as :diff off; :diff summary prints a line a changed target).
    @Flag(help: "Print no diffs of state (as :diff off; :diff summary prints a line a changed target).")
    public var noDiff = false

    /// Print each command's causal tree after its output (as :trace on).
    @Flag(help: "Print each command's causal tree after its output (as :trace on).")
    public var trace = false

    public init() {}
}

/// What a session keeps of its commands (`karc --help`: HISTORY).
public struct HistoryArguments: ParsableArguments {
    /// Where the prompt keeps its history (/dev/null: nowhere; default: one file per cluster name under $XDG_STATE_HOME/karc).
    @Option(
        help: ArgumentHelp(
            "Where the prompt keeps its history (/dev/null: nowhere; default: one file per cluster name under $XDG_STATE_HOME/karc).",
            valueName: "PATH"))
    public var historyFile: String?

    /// How many commands the session keeps for :history, :save and :export-test (the oldest go past it).
    // `.unconditional`: `--history-limit -1` is a value validate() refuses with a reason, not a missing one.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many commands the session keeps for :history, :save and :export-test; past it the oldest are dropped.", valueName: "N"))
    public var historyLimit = ShellOptions.defaultHistoryLimit

    /// Append each command that succeeded to this file as it runs (a script that replays the session, as :save writes).
    @Option(
        help: ArgumentHelp(
            "Append each command that succeeded to this file as it runs (a script that replays the session, as :save writes).",
            valueName: "FILE"))
    public var record: String?

    /// With --record, keep the commands that failed too (as :save FILE --with-failures).
    @Flag(help: "With --record, keep the commands that failed too (as :save FILE --with-failures).")
    public var withFailures = false

    public init() {}

    /// Refuses a `--history-limit` below 1.
    public func validate() throws {
        guard historyLimit >= 1 else {
            throw ValidationError("--history-limit must be at least 1 (a number of commands), got \(historyLimit)")
        }
        guard !withFailures || record != nil else {
            throw ValidationError("--with-failures says what --record keeps: give --record FILE too")
        }
    }
}

/// How `:export-test` writes a test (`karc --help`: EXPORTED TESTS).
public struct ExportedTestArguments: ParsableArguments {
    /// How a test :export-test writes makes its cluster: a Swift expression of a Trellis Cluster (`clock`: the store's TestClock).
    @Option(
        help: ArgumentHelp(
            "How a test :export-test writes makes its cluster: a Swift expression of a Trellis Cluster (`clock`: the store's TestClock).",
            valueName: "EXPR"))
    public var testFactory: String?

    /// A module a test :export-test writes imports (repeatable): the cluster's.
    @Option(help: ArgumentHelp("A module a test :export-test writes imports (repeatable): the cluster's.", valueName: "MODULE"))
    public var testImport: [String] = []

    public init() {}
}

/// A duration on the command line: `250ms`, `5s`, `1.5s`, `1m` (more than zero).
public struct DurationArgument: ExpressibleByArgument, Sendable {
    /// The duration given.
    public let duration: Duration

    /// A duration argument of `duration`.
    public init(_ duration: Duration) {
        self.duration = duration
    }

    public init?(argument: String) {
        guard let duration = ShellDuration.parse(argument), duration > .zero else { return nil }
        self.duration = duration
    }

    public var defaultValueDescription: String { ShellDuration.describe(duration) }

    /// `text` as a duration, or an error that says what is accepted.
    public static func parse(_ text: String) throws -> DurationArgument {
        guard let duration = ShellDuration.parse(text) else { throw ValidationError("expected \(ShellDuration.expectation)") }
        guard duration > .zero else { throw ValidationError("a duration must be more than zero (like 250ms, 5s, 1m)") }
        return DurationArgument(duration)
    }
}
