import Foundation
import KarcAsync
import KarcAttachProtocol
import KarcShell
import KarcSynchronization

/// Tab on a path into a target's state, through the connection: the
/// editor's thread asks the app and waits for its answer, a short while
/// at most (the app is busy, or gone, or too old to answer).
final class CompletionRequests: Sendable {
    private struct State {
        var nextID: UInt64 = 1
        var waiting: [UInt64: (answer: [String]?, done: DispatchSemaphore)] = [:]
    }

    private let state = KarcMutex(State())

    /// Sends a request for `target`'s paths from `typed` through `send`
    /// and returns the app's answer; nothing after `wait` without one.
    func ask(
        target: String, typed: String, wait: Duration = .milliseconds(500), send: (Karc_Attach_V1_CompletionRequest) -> Void
    ) -> [String] {
        let done = DispatchSemaphore(value: 0)
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            s.waiting[s.nextID] = (nil, done)
            return s.nextID
        }
        send(
            .with {
                $0.id = id
                $0.target = target
                $0.path = typed
            })
        _ = done.wait(timeout: .now() + .milliseconds(Int(ShellDuration.milliseconds(wait))))
        return state.withLock { $0.waiting.removeValue(forKey: id)?.answer } ?? []
    }

    /// The app answered request `id` (one given up on is dropped).
    func answered(_ id: UInt64, with candidates: [String]) {
        let done = state.withLock { s -> DispatchSemaphore? in
            guard s.waiting[id] != nil else { return nil }
            s.waiting[id]?.answer = candidates
            return s.waiting[id]?.done
        }
        done?.signal()
    }
}
