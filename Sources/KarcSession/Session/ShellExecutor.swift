import Foundation
import KarcAsync
import Synchronization

/// One thread that runs the shell's own tasks: its loop, each command's
/// send, and the actors that send calls into (a default actor runs on the
/// calling task's preferred executor).
///
/// On the shared pool, every command crossed threads twice (the send started
/// on an idle thread, which then woke the shell's); with two cores those
/// wake-ups were a quarter of what a command cost. Here the send's first job
/// waits in this thread's queue until the shell awaits it, and the shell's
/// resumption waits behind the send's last job: no wake-up at all when the
/// cluster answers from the same chain of calls.
package final class ShellExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var sleeping = false
    }

    private let state = KarcMutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// The executor every shell in the process shares; its thread starts with the first shell.
    package static let shared = ShellExecutor()

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "karc-shell"
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let sleeping = state.withLock { s in
            s.jobs.append(job)
            defer { s.sleeping = false }
            return s.sleeping
        }
        if sleeping { wake.signal() }
    }

    private func run() {
        while true {
            let batch = state.withLock { s in
                defer { s.jobs = [] }
                s.sleeping = s.jobs.isEmpty
                return s.jobs
            }
            if batch.isEmpty {
                wake.wait()
                continue
            }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
