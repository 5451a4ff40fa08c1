import KarcAsync
import KarcSynchronization
import Synchronization

/// Whether a report of a state change must carry the state before it.
///
/// A store that keeps its state before a change, to report it, shares its
/// storage with it while the change is made, so the change copies the
/// state: on a 10,000-element list, every element, for every command. An
/// observer that keeps its own picture of the last state it saw (the karc
/// shell) subscribes without old states; then each source's reports carry
/// only the new state, except its first one after such a subscription
/// (which gives the observer its starting point). While any observer wants
/// old states (the default), every report carries one.
package final class OldStateDemand: Sendable {
    /// Observers that want every old state.
    private let keepers = Atomic<Int>(0)
    /// Sources whose old state was reported since the last observer without old states subscribed.
    private let reported = KarcMutex<Set<String>>([])

    init() {}

    func subscribed(keepingOldStates: Bool) {
        if keepingOldStates {
            keepers.add(1, ordering: .relaxed)
        } else {
            restart()
        }
    }

    /// Each source's next report carries its old state again: an observer
    /// without old states starts over (a new shell session on the same subscription).
    package func restart() {
        reported.withLock { $0.removeAll() }
    }

    func unsubscribed(keepingOldStates: Bool) {
        if keepingOldStates { keepers.subtract(1, ordering: .relaxed) }
    }

    /// Whether the next report from `source` must carry its old state.
    package func isNeeded(by source: String) -> Bool {
        keepers.load(ordering: .relaxed) > 0 || reported.withLock { !$0.contains(source) }
    }

    /// `source` reported an old state: the observers without old states have their start.
    package func wasReported(by source: String) {
        if keepers.load(ordering: .relaxed) == 0 { reported.withLock { _ = $0.insert(source) } }
    }
}

/// What a report without the old state carries in its place (an observer
/// that asked for none keeps its own picture of the last state).
package struct StateNotKept: Sendable {}
