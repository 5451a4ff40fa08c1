import KarcAsync
import KarcOutput
import KarcSynchronization
import Synchronization

/// Sends that timed out (or were interrupted) and answer later. Their
/// replies are printed when they come, marked late and naming their
/// command; while any is out, the next commands are not blamed for the
/// cluster being busy with it.
package final class LateReplies: Sendable {
    struct Reply: Sendable {
        let command: Origin
        let outcome: SendOutcome
    }

    /// The command a late reply belongs to.
    package typealias Origin = CommandOrigin

    private struct State {
        /// Called once when the next reply is ready (the prompt's wait).
        var onArrival: (@Sendable () -> Void)?
        /// Sends given up on, by token, with their command.
        var waiting: [Int: Origin] = [:]
        /// Outcomes that came before the shell gave the send up (a race), by token.
        var early: [Int: SendOutcome] = [:]
        var ready: [Reply] = []
        var nextToken = 0
    }

    private let state = KarcMutex(State())

    func token() -> Int {
        state.withLock { s in
            defer { s.nextToken += 1 }
            return s.nextToken
        }
    }

    /// The shell stopped waiting for the send `token` (`command`).
    func gaveUp(_ token: Int, command: Origin) {
        state.withLock { s in
            if let outcome = s.early.removeValue(forKey: token) {
                s.ready.append(Reply(command: command, outcome: outcome))
            } else {
                s.waiting[token] = command
            }
        }
    }

    /// The send `token` ended after the shell stopped waiting for it.
    func arrived(_ token: Int, _ outcome: SendOutcome) {
        let notify = state.withLock { s -> (@Sendable () -> Void)? in
            guard let command = s.waiting.removeValue(forKey: token) else {
                s.early[token] = outcome
                return nil
            }
            s.ready.append(Reply(command: command, outcome: outcome))
            defer { s.onArrival = nil }
            return s.onArrival
        }
        notify?()
    }

    /// Calls `wake` once, when the next late reply is ready (at once if one is).
    func onArrival(_ wake: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if !s.ready.isEmpty { return true }
            s.onArrival = wake
            return false
        }
        if now { wake() }
    }

    /// Whether a late reply waits to be printed.
    var hasReady: Bool { state.withLock { !$0.ready.isEmpty } }

    /// Sends still out after the shell gave up on them.
    var outstanding: Int { state.withLock { $0.waiting.count } }

    /// The commands whose sends are still out, in the order they were given up on.
    var waitingFor: [Origin] { state.withLock { $0.waiting.sorted { $0.key < $1.key }.map(\.value) } }

    /// The commands still out, given up on for good (the shell ends).
    func abandon() -> [Origin] {
        state.withLock { s in
            defer { s.waiting = [:] }
            return s.waiting.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    /// The late replies that came since the last call.
    func take() -> [Reply] {
        state.withLock { s in
            defer { s.ready = [] }
            return s.ready
        }
    }
}
