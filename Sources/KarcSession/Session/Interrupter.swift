import KarcAsync
import KarcSynchronization
import Synchronization

/// Ctrl-C while a command runs: the command ends with `interrupted`, as
/// psql's cancel does. What a command waits on (a send, the settle after
/// it, `:sleep`, `:wait`, the lines of `:source`) registers here and is let
/// go at once; the work it started goes on in the background.
package final class Interrupter: Sendable {
    private struct State {
        var isTriggered = false
        /// Every Ctrl-C that came, ever.
        var triggers = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
    }

    private let state = KarcMutex(State())

    package init() {}

    /// Whether Ctrl-C came since the last ``reset()``.
    package var isTriggered: Bool { state.withLock { $0.isTriggered } }

    /// How many times Ctrl-C came, ever: a wait tells one that came since it
    /// began, even if something reset it meanwhile (``hasTriggered(since:)``).
    package var triggers: Int { state.withLock { $0.triggers } }

    /// Whether Ctrl-C came since ``triggers`` was `seen`, or is still to be answered.
    package func hasTriggered(since seen: Int) -> Bool {
        state.withLock { $0.isTriggered || $0.triggers != seen }
    }

    /// Lets every waiter go; later waiters return at once until ``reset()``.
    package func trigger() {
        let handlers = state.withLock { s in
            s.isTriggered = true
            s.triggers += 1
            defer { s.handlers = [:] }
            return Array(s.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Before each command: an interrupt of the last one does not reach the next.
    package func reset() {
        state.withLock { $0.isTriggered = false }
    }

    /// ``reset()``, unless Ctrl-C came since ``triggers`` was `seen`: one that
    /// comes as the caller decides nothing runs may be for a line that
    /// arrives with it, and is kept for the caller's next look.
    package func reset(unlessTriggeredSince seen: Int) {
        state.withLock { if $0.triggers == seen { $0.isTriggered = false } }
    }

    /// Calls `handler` on an interrupt while `body` runs (at once if one already came).
    package func whileWaiting<T>(onInterrupt handler: @escaping @Sendable () -> Void, _ body: () async -> T) async -> T {
        let token = state.withLock { s -> Int? in
            if s.isTriggered { return nil }
            defer { s.nextToken += 1 }
            s.handlers[s.nextToken] = handler
            return s.nextToken
        }
        guard let token else {
            handler()
            return await body()
        }
        defer { _ = state.withLock { $0.handlers.removeValue(forKey: token) } }
        return await body()
    }
}
