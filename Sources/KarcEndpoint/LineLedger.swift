import KarcAsync
import KarcAttachProtocol
import KarcSynchronization

/// The app's side of ``LineCredit``: counts what a shell's lines cost as
/// they arrive, refuses a shell that sends beyond its credit, and gives
/// credit back (a Credit message) as the session takes them, a quarter of
/// the window at a time.
final class LineLedger: Sendable {
    private struct State {
        var credit: LineCredit
        /// Taken since the last Credit message.
        var taken = 0
    }

    private let state: KarcMutex<State>
    private let outbox: Outbox

    init(window: Int, outbox: Outbox) {
        state = KarcMutex(State(credit: LineCredit(window: window)))
        self.outbox = outbox
    }

    var window: Int { state.withLock { $0.credit.window } }

    /// Lines arrived; false when they were sent beyond the credit.
    func received(_ lines: [String]) -> Bool {
        let cost = LineCredit.cost(of: lines)
        return state.withLock { s in
            guard s.credit.allows(cost: cost, count: lines.count) else { return false }
            s.credit.spend(cost)
            return true
        }
    }

    /// The session took `line`: its cost goes back to the shell, in batches.
    func taken(_ line: String) {
        let cost = LineCredit.cost(of: line)
        let grant = state.withLock { s -> Int? in
            s.credit.returned(cost)
            s.taken += cost
            guard s.taken >= s.credit.window / 4 || s.credit.outstanding == 0 else { return nil }
            defer { s.taken = 0 }
            return s.taken
        }
        if let grant { outbox.send(.with { $0.credit = .with { $0.bytes = UInt64(grant) } }) }
    }
}
