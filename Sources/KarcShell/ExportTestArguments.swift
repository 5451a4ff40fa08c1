import ArgumentParser

/// `export-test`'s flags: the script, where to write, how the test makes its cluster.
public struct ExportTestArguments: ParsableArguments {
    /// The script to replay and write as a test.
    @Argument(help: ArgumentHelp("The script to replay and write as a test.", valueName: "SCRIPT"))
    public var script: String

    /// Where to write the test (default: standard output).
    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the test (default: standard output).", valueName: "FILE"))
    public var output: String?

    /// The test function's name (default: from the script's name).
    @Option(help: ArgumentHelp("The test function's name (default: from the script's name).", valueName: "NAME"))
    public var name: String?

    /// How the test makes its cluster: a Swift expression of a Trellis Cluster; `clock` is the store's TestClock.
    @Option(
        help: ArgumentHelp(
            "How the test makes its cluster: a Swift expression of a Trellis Cluster; `clock` is the store's TestClock.", valueName: "EXPR"))
    public var testFactory: String?

    /// A module the test imports (repeatable): the cluster's.
    @Option(help: ArgumentHelp("A module the test imports (repeatable): the cluster's.", valueName: "MODULE"))
    public var testImport: [String] = []

    /// How long a command may keep the cluster busy (250ms, 5s, 1m).
    @Option(
        help: ArgumentHelp("How long a command may keep the cluster busy (250ms, 5s, 1m).", valueName: "DURATION"), transform: DurationArgument.parse)
    public var timeout = DurationArgument(.seconds(5))

    public init() {}

    /// What `export-test --help` says after its abstract, in every shell that has it.
    public static let discussion = """
        Each command becomes a send, each reply and event an assertion, and each target's state at \
        the end is asserted whole. --test-factory says how the test makes its cluster.
        """

    /// These flags over the embedding's defaults.
    public func options(over defaults: TestExportOptions) -> TestExportOptions {
        defaults.overridden(factory: testFactory, imports: testImport)
    }
}
