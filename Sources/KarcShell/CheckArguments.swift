import ArgumentParser

/// `check`'s flags: the transcripts, `--update`, `--timeout`.
public struct CheckArguments: ParsableArguments {
    /// The transcripts to check: scripts with each command's expected output under it in #= lines.
    @Argument(help: ArgumentHelp("The transcripts to check: scripts with each command's expected output under it in #= lines.", valueName: "FILE"))
    public var files: [String] = []

    /// Rewrite each transcript's expected output with what its commands print now (and pass).
    @Flag(help: "Rewrite each transcript's expected output with what its commands print now (and pass).")
    public var update = false

    /// How long a command may keep the cluster busy, and :wait's default (250ms, 5s, 1m).
    @Option(
        help: ArgumentHelp("How long a command may keep the cluster busy, and :wait's default (250ms, 5s, 1m).", valueName: "DURATION"),
        transform: DurationArgument.parse)
    public var timeout = DurationArgument(.seconds(5))

    public init() {}

    /// What `check --help` says after its abstract, in every shell that has it.
    public static let discussion = """
        A mismatch prints a unified diff of the script; --update rewrites the #= lines instead. \
        #mask NAME [PATTERN] lines mask what differs on every run (built in: uuid, date, duration). \
        Exit status: 0 when every transcript matched, 1 otherwise.
        """

    public func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one transcript to check (a .karc script with #= lines)") }
    }
}
