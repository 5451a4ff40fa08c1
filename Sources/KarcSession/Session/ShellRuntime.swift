/// What a session keeps time with and runs its sends on; today's defaults
/// (the continuous clock, the process's shell thread) unless given others.
package struct ShellRuntime: Sendable {
    package var clock: ShellClock
    /// Where each send, settle and wait runs (``ShellExecutor``).
    package var executor: ShellExecutor

    /// Where printed records are let go (``RecordDisposal``).
    package var disposal: RecordDisposal

    package init(clock: ShellClock = .continuous, executor: ShellExecutor = .shared, disposal: RecordDisposal = .shared) {
        self.clock = clock
        self.executor = executor
        self.disposal = disposal
    }
}
