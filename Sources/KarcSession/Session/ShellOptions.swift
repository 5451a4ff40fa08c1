import Foundation
import KarcOutput
import KarcTestExport

/// How a shell session runs and prints (the `karc` flags).
public struct ShellOptions: Sendable {
    /// How the session prints: JSON or readable, colour, diffs, echo, notices.
    public var printing = Printing()
    /// Go on after a failed command (the exit status is still 1).
    public var keepGoing = false
    /// How long a command may keep the cluster busy, and the default of `:wait`.
    public var timeout: Duration = .seconds(5)
    /// What the session keeps of its commands, and where.
    public var history = History()
    /// How a test `:export-test` writes makes its cluster (`--test-factory`, `--test-import`).
    public var testExport = TestExportOptions()
    /// Where the startup files a prompt runs before its first line are
    /// (`karcrc`, then `NAME.karcrc`): nil, the default, runs none; the
    /// command line sets `$XDG_CONFIG_HOME/karc` unless `--no-rc`.
    public var startupDirectory: String?
    /// The watches the session starts with, as `:watch` takes them: an
    /// attached shell that reconnected asks for its own back.
    package var watches: [String] = []

    /// 10,000 commands: the default of ``History/limit``.
    public static let defaultHistoryLimit = 10_000

    /// The defaults: readable output, coloured on a terminal without `NO_COLOR`, diffs on, a 5 s timeout.
    public init() {}

    /// How a session prints.
    public struct Printing: Sendable {
        /// One JSON object a line instead of the readable form (`--json`).
        public var json = false
        /// `--json` `state` lines also carry the whole old and new states (`--json-states`).
        public var jsonStates = false
        /// Print each command before its output (`> counter.increment`; `--echo`).
        public var echo = false
        /// Colour the readable output; nil (the default): when standard output is
        /// a terminal and `NO_COLOR` is not set.
        public var color: Bool?
        /// How a change of state is printed (`:diff`, `--no-diff`).
        public var diff = DiffMode.full
        /// Leave out the banner and notices; only facts and errors (`--quiet`).
        public var quiet = false
        /// Print each command's causal tree after its output (`--trace`, `:trace on`).
        public var trace = false

        /// Readable output, coloured on a terminal without `NO_COLOR`, diffs on.
        public init() {}

        /// ``color``, decided for this process when it is nil.
        var colorResolved: Bool {
            color ?? (isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        }
    }

    /// What a session keeps of its commands.
    public struct History: Sendable {
        /// Where the prompt keeps its line history; nil: `$XDG_STATE_HOME/karc/NAME.history`
        /// (NAME: the cluster's), else `~/.local/state/karc/NAME.history`; `/dev/null`: nowhere.
        public var file: String?
        /// How many commands a session keeps for `:history`, `:save` and
        /// `:export-test` (`--history-limit`): past it the oldest are dropped,
        /// so a long session runs in bounded memory.
        public var limit = ShellOptions.defaultHistoryLimit
        /// Appends each command that succeeded to this file as it runs
        /// (`--record FILE`), after a header: a script that replays the
        /// session, as `:save` writes one.
        public var recordFile: String?
        /// The record file keeps the commands that failed too (`--with-failures`, as `:save FILE --with-failures`).
        public var recordsFailures = false

        /// The prompt's history in the default place, 10,000 commands kept, nothing recorded.
        public init() {}
    }
}
