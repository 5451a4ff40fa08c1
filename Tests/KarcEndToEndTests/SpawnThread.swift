import Foundation
import KarcAsync
import KarcSynchronization

/// The thread servers are spawned from. The parent-death signal follows
/// the spawning thread, not the process: one of the cooperative pool's
/// threads may be let go while idle, and its children would be killed
/// with it. This one lives as long as the process.
final class SpawnThread: Sendable {
    static let shared = SpawnThread()
    private let jobs = KarcMutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        Thread { [self] in
            while true {
                ready.wait()
                jobs.withLock { $0.removeFirst() }()
            }
        }.start()
    }

    /// Runs `body` on this thread and waits for it.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = KarcMutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        jobs.withLock {
            $0.append {
                result.withLock { $0 = Result { try body() } }
                done.signal()
            }
        }
        ready.signal()
        done.wait()
        // Set before `done` was signalled.
        return try result.withLock { $0! }.get()
    }
}
