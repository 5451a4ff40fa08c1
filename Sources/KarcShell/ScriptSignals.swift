import CKarcTerminal
import Foundation
import KarcAsync
import KarcScriptTools
import KarcSession
import KarcSynchronization

/// SIGINT, SIGTERM and SIGHUP during a script, handled as shells and
/// well-behaved tools do: the process ends with 128 + the signal's number
/// (130, 143, 129), never by the signal's default action, and never in the
/// middle of a line of output.
///
/// The first signal ends the running command (its session's
/// ``Interrupter``), and so the script, which then returns as usual: its
/// output flushed, `--record` complete. Should that take longer than
/// ``grace``, or should a second signal come, the process ends itself:
/// what the script printed goes out whole first (``OutputSink`` holds only
/// whole lines, and keeps its lock until the end).
///
/// The C handlers only write a byte to a pipe; a thread of its own reads
/// it. Installed once a process; each script run points it at its session.
package enum ScriptSignals {
    private struct State {
        var installed = false
        var interrupter: Interrupter?
        var sink: OutputSink?
        /// The first signal that came.
        var received: Int32?
    }

    private static let state = KarcMutex(State())

    /// How long a script has to end by itself after a signal.
    static let grace: Duration = .seconds(5)

    /// Points the signals at a script's session: `interrupter` ends its
    /// running command, and `sink` is flushed before the process ends itself.
    package static func forward(to interrupter: Interrupter, flushing sink: OutputSink? = nil) {
        let install = state.withLock { s -> Bool in
            s.interrupter = interrupter
            s.sink = sink
            defer { s.installed = true }
            return !s.installed
        }
        guard install else { return }
        var fds: [Int32] = [-1, -1]
        // Without a pipe (out of descriptors) the signals keep their default effect.
        guard pipe(&fds) == 0 else { return }
        // Not inherited by what this process starts (explore's workers, a pager).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let read = fds[0]
        karc_install_script_signal_handlers(fds[1])
        let thread = Thread { listen(read) }
        thread.name = "karc-signals"
        thread.start()
    }

    /// 130, 143 or 129 once SIGINT, SIGTERM or SIGHUP came; nil before.
    /// What a script that ended because of one exits with.
    package static var exitStatus: Int32? {
        state.withLock { $0.received.map { 128 + $0 } }
    }

    /// The signal a byte from the handlers stands for.
    static func signal(for byte: UInt8) -> Int32? {
        switch byte {
        case UInt8(ascii: "i"): SIGINT
        case UInt8(ascii: "t"): SIGTERM
        case UInt8(ascii: "h"): SIGHUP
        default: nil
        }
    }

    private static func listen(_ fd: Int32) {
        var deadline: ContinuousClock.Instant?
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = deadline.map { Int32(clamping: max(0, ShellDuration.milliseconds($0 - .now))) } ?? -1
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 { end(status: exitStatus ?? 128 + SIGTERM) }
            var byte: UInt8 = 0
            let count = Foundation.read(fd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            guard let signal = signal(for: byte) else { continue }
            let (interrupter, first) = state.withLock { s -> (Interrupter?, Bool) in
                defer { s.received = s.received ?? signal }
                return (s.interrupter, s.received == nil)
            }
            guard first else { end(status: 128 + signal) }
            interrupter?.trigger()
            deadline = .now + grace
        }
    }

    /// Ends the process: the terminal as it was found, the output flushed whole.
    private static func end(status: Int32) -> Never {
        karc_restore_terminal()
        guard let sink = state.withLock({ $0.sink }) else { _exit(status) }
        sink.flushAndExit(status)
    }
}

extension ScriptInterrupts {
    /// The process's SIGINT, SIGTERM and SIGHUP (``ScriptSignals``).
    package static var signals: ScriptInterrupts {
        ScriptInterrupts(forward: { ScriptSignals.forward(to: $0) }, exitStatus: { ScriptSignals.exitStatus })
    }
}
