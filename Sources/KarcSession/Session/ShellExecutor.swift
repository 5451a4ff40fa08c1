import Foundation
import KarcAsync
import KarcSynchronization
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
///
/// Shells share one (``shared``) unless given their own (``ShellRuntime``):
/// a test, or a host that wants its sessions apart, makes one; its thread
/// ends when the last task that prefers it has.
package final class ShellExecutor: TaskExecutor {
    private let queue = JobQueue()

    /// The executor shells share unless given their own; its thread starts with the first shell.
    package static let shared = ShellExecutor()

    /// An executor with a thread of its own, named `name`.
    package init(name: String = "karc-shell") {
        // The queue runs each job on this executor; unowned, since every task that
        // prefers it keeps it alive, and once none does no job is left to run.
        let executor = asUnownedTaskExecutor()
        let thread = Thread { [queue] in queue.run(on: executor) }
        thread.name = name
        thread.start()
    }

    deinit {
        queue.stop()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        queue.append(UnownedJob(job))
    }
}

/// The jobs waiting for an executor's thread, and the loop that runs them.
private final class JobQueue: Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var sleeping = false
        var stopped = false
    }

    private let state = KarcMutex(State())
    private let wake = DispatchSemaphore(value: 0)

    func append(_ job: UnownedJob) {
        let sleeping = state.withLock { s in
            s.jobs.append(job)
            defer { s.sleeping = false }
            return s.sleeping
        }
        if sleeping { wake.signal() }
    }

    func stop() {
        let sleeping = state.withLock { s in
            s.stopped = true
            defer { s.sleeping = false }
            return s.sleeping
        }
        if sleeping { wake.signal() }
    }

    /// Runs the jobs on `executor`'s thread until the executor is gone.
    func run(on executor: UnownedTaskExecutor) {
        // Two buffers swapped in turn, each emptied keeping its capacity: a
        // batch costs no allocation (a fresh array each took two a command).
        var batch: [UnownedJob] = []
        while true {
            let stopped = state.withLock { s in
                s.sleeping = s.jobs.isEmpty && !s.stopped
                swap(&batch, &s.jobs)
                return s.stopped
            }
            if batch.isEmpty {
                if stopped { return }
                wake.wait()
                continue
            }
            for job in batch { job.runSynchronously(on: executor) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
