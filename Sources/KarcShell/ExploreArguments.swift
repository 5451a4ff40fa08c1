import ArgumentParser
import Foundation
import KarcExplore
import KarcSession

/// `explore`'s flags: how many sequences, how long, of which commands,
/// what counts as a failure and where the scripts go.
struct ExploreArguments: ParsableArguments {
    // `.unconditional`: `--runs -1` is a value to refuse with a reason (validate()), not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("How many sequences to run, each against a fresh cluster.", valueName: "N"))
    var runs = 100

    @Option(parsing: .unconditional, help: ArgumentHelp("The most commands a sequence sends.", valueName: "M"))
    var steps = 50

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The seed of the sequences (default: from the time; printed, so a run can be repeated).", valueName: "S"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Only these targets' commands (a,b).", valueName: "TARGETS"))
    var targets: String?

    @Option(help: ArgumentHelp("Never send this command, or any of this target's (repeatable; a,b too).", valueName: "TARGET.COMMAND"))
    var skip: [String] = []

    @Option(help: ArgumentHelp("An error type that is a bug when a send throws it (repeatable); other errors are refusals.", valueName: "TYPE"))
    var failOn: [String] = []

    @Option(
        help: ArgumentHelp("How long a command and the work it starts may take before it counts as a hang.", valueName: "DURATION"),
        transform: DurationArgument.parse)
    var timeout = DurationArgument(.seconds(5))

    @Option(
        help: ArgumentHelp("How far the cluster's clock moves between commands (its timers fire).", valueName: "DURATION"),
        transform: DurationArgument.parse)
    var advance = DurationArgument(.seconds(1))

    @Option(help: ArgumentHelp("Stop starting sequences after this long.", valueName: "DURATION"))
    var timeLimit: DurationArgument?

    @Option(help: ArgumentHelp("Where the script of each failure is written.", valueName: "DIR"))
    var out = "explore-failures"

    @Flag(help: "Write each failure as a Swift test on ClusterTestStore too, beside its script, that fails the same way.")
    var exportTest = false

    @Option(
        help: ArgumentHelp(
            "How an exported test makes its cluster: a Swift expression of a Trellis Cluster; `clock` is the store's TestClock.",
            valueName: "EXPR"))
    var testFactory: String?

    @Option(help: ArgumentHelp("A module an exported test imports (repeatable): the cluster's.", valueName: "MODULE"))
    var testImport: [String] = []

    @Flag(help: "Go on after a failure, to find failures of other kinds.")
    var keepGoing = false

    @Flag(help: "One JSON object a line: the start, each run, each failure, the summary.")
    var json = false

    @Flag(help: "Run the cluster in this process: faster, but a crash ends the exploration unreported.")
    var inProcess = false

    /// Set in the child that runs the sequences: answers on fd 3.
    @Flag(help: .hidden)
    var worker = false

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be at least 1 (how many sequences to run), got \(runs)") }
        guard steps > 0 else { throw ValidationError("--steps must be at least 1 (the most commands a sequence sends), got \(steps)") }
        for name in failOnList where !Self.isTypeName(name) {
            throw ValidationError("--fail-on: '\(name)' is not the name of a Swift type (write the error's type, as SafeJammed or Safe.Jammed)")
        }
    }

    /// Whether `name` could name a Swift type: identifiers a `.` apart.
    static func isTypeName(_ name: String) -> Bool {
        name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, first.isLetter || first == "_" else { return false }
            return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
    }

    var failOnList: [String] { failOn.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } }

    var stepSettings: ExploreStepRunner.Settings {
        var settings = ExploreStepRunner.Settings()
        settings.timeout = timeout.duration
        settings.tick = advance.duration
        settings.failOn = Set(failOnList)
        return settings
    }

    /// What the explorer runs with; `commandLine` is how it was started
    /// (for the lines that replay a script and repeat the exploration).
    func settings(name: String, seed: UInt64, testExport: TestExportOptions, catalog: Catalog, commandLine: ExploreCommandLine)
        -> Explorer.Settings
    {
        var settings = Explorer.Settings()
        if exportTest { settings.testExport = testExport.overridden(factory: testFactory, imports: testImport) }
        settings.catalog = catalog
        settings.advance = advance.duration
        settings.runs = runs
        settings.steps = steps
        settings.seed = seed
        settings.timeLimit = timeLimit?.duration
        settings.output = out
        settings.keepGoing = keepGoing
        settings.replayCommand = commandLine.replay(name: name)
        settings.repeatCommand = commandLine.repeatCommand(name: name, seed: seed, runs: runs, steps: steps)
        settings.failOn = failOnList
        settings.json = json
        return settings
    }

    var targetList: [String] { targets.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? [] }
    var skipList: [String] { skip.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } }

    static let discussion = """
        Each sequence runs against a fresh cluster, in a child process (the same program), so a crash is \
        caught like any other failure. A failure is an invariant a target declares that a command broke, a \
        command that does not settle within --timeout, the process crashing, or a send failing with an \
        error --fail-on names. The first failure is shrunk to the fewest, simplest commands that still fail \
        the same way and written to DIR as a script that replays it, under a name of its own. Ctrl-C writes \
        what was found so far, shrunk or not. Exit status: 0 when nothing failed, 1 when something did, 2 \
        when the exploration could not run (or a --fail-on type was never thrown), 64 for bad command-line \
        arguments; 130, 143 or 129 after Ctrl-C (SIGINT), SIGTERM or SIGHUP, each having written what it found.
        """
}
