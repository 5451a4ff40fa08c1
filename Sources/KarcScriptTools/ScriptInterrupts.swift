import KarcSession

/// How Ctrl-C and the process's signals reach a run that has no prompt
/// (`check`, `export-test`): the terminal side (`KarcShell`'s signal
/// handlers) points them at the run's ``Interrupter``, and says what the
/// process exits with once one came. This module installs no handler of
/// its own: an app that calls ``Shell/check(_:update:timeout:testExport:cluster:)``
/// keeps its own signals.
package struct ScriptInterrupts: Sendable {
    /// Points the signals at a run's interrupter.
    package var forward: @Sendable (Interrupter) -> Void
    /// The status a run stopped by a signal exits with (130, 143, 129); nil when none came.
    package var exitStatus: @Sendable () -> Int32?

    package init(forward: @escaping @Sendable (Interrupter) -> Void, exitStatus: @escaping @Sendable () -> Int32?) {
        self.forward = forward
        self.exitStatus = exitStatus
    }

    /// No signals: the run ends only by itself.
    package static let none = ScriptInterrupts(forward: { _ in }, exitStatus: { nil })
}
