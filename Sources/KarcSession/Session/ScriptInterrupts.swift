import CKarcTerminal
import Foundation
import KarcAsync

/// SIGINT during a script, handed to the running session's ``Interrupter``
/// by a thread of its own (the C handler only writes a byte to a pipe).
/// Installed once a process; each script run points it at its session.
package enum ScriptInterrupts {
    private static let state = KarcMutex<(installed: Bool, interrupter: Interrupter?)>((false, nil))

    package static func forward(to interrupter: Interrupter) {
        let install = state.withLock { s -> Bool in
            s.interrupter = interrupter
            defer { s.installed = true }
            return !s.installed
        }
        guard install else { return }
        var fds: [Int32] = [-1, -1]
        // Without a pipe (out of descriptors) Ctrl-C keeps its default effect.
        guard pipe(&fds) == 0 else { return }
        let read = fds[0]
        karc_install_interrupt_handler(fds[1])
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = Foundation.read(read, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                state.withLock { $0.interrupter }?.trigger()
            }
        }
        thread.name = "karc-interrupts"
        thread.start()
    }
}
