import KarcAsync
import KarcSynchronization
import Synchronization

/// What the sessions of one endpoint hold for their shells: the most
/// output bytes that ever waited in one session's ``Outbox``, and how many
/// times a session waited for room. A shell that stops reading costs the app
/// this much memory; the tests await a session's wait instead of polling.
final class OutputGauge: Sendable {
    private struct State {
        var roomWaits = 0
        var watchers = StateWatchers()
    }

    private let state = KarcMutex(State())
    /// Told with every message a session prints: a load, and a store only when it grows.
    private let peak = Atomic<Int>(0)

    /// A session's outbox holds `bytes` now.
    func held(_ bytes: Int) {
        var seen = peak.load(ordering: .relaxed)
        while bytes > seen {
            let (exchanged, original) = peak.compareExchange(expected: seen, desired: bytes, ordering: .relaxed)
            if exchanged { return }
            seen = original
        }
    }

    /// A session waits for room (its shell reads slower than it prints).
    func waitedForRoom() {
        let met = state.withLock { s in
            s.roomWaits += 1
            return StateWatchers.satisfied(in: &s, \.watchers)
        }
        met.forEach { $0.resume() }
    }

    var peakBytes: Int { peak.load(ordering: .relaxed) }

    /// Returns once `count` holds of the number of waits for room so far (at once if it does now).
    func untilRoomWaits(_ count: @escaping @Sendable (Int) -> Bool) async {
        await StateWatchers.until({ count($0.roomWaits) }, in: state, at: \.watchers)
    }
}
