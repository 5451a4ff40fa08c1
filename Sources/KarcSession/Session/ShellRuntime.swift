import KarcAsync

/// What a session keeps time with and runs its sends on; today's defaults
/// (the continuous clock, the process's shell thread) unless given others.
package struct ShellRuntime: Sendable {
    package var clock: ShellClock
    /// Where each send, settle and wait runs (``ShellExecutor``).
    package var executor: ShellExecutor

    /// Where printed records are let go (``RecordDisposal``).
    package var disposal: RecordDisposal

    /// Where a wait that prints nothing says what it waits for, once a
    /// second: a line written in place of the last (`""` clears it), as a
    /// terminal's standard error shows it. Nil: nowhere (a pipe, a file, a
    /// shell attached from elsewhere).
    package var statusLine: (@Sendable (String) -> Void)? = nil

    /// How many columns a script's output is drawn in (`:seq`, `:trace`):
    /// the terminal's width when standard output is one, else `COLUMNS`
    /// when set; nil (the default): `:seq` draws in 100, `:trace` cuts
    /// nothing. At the prompt the line editor says.
    package var columns: (@Sendable () -> Int?)? = nil

    /// What starts the browser inspector (`:inspect`); nil: this session cannot serve one.
    package var inspector: (any InspectorStarting)? = nil

    package init(clock: ShellClock = .continuous, executor: ShellExecutor = .shared, disposal: RecordDisposal = .shared) {
        self.clock = clock
        self.executor = executor
        self.disposal = disposal
    }
}
