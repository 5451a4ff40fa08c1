import DequeModule
import KarcAsync
import KarcSynchronization

/// Which attached shell started which trace: what tells a shell that a
/// change it did not make came from another shell's command (its record's
/// trace is one another shell started) rather than from the app itself.
///
/// Bounded: the newest ``capacity`` traces are kept; an older one reads as
/// the app's.
final class ShellTraces: Sendable {
    private struct State {
        var owners: [UInt64: Int] = [:]
        var order: Deque<UInt64> = []
        var nextShell = 0
    }

    static let capacity = 20_000
    private let state = KarcMutex(State())

    /// A number for a new shell, never given before.
    func newShell() -> Int {
        state.withLock { s in
            defer { s.nextShell += 1 }
            return s.nextShell
        }
    }

    /// The shell `shell` started the trace `trace` (a command's send).
    func started(_ trace: UInt64, by shell: Int) {
        state.withLock { s in
            s.owners[trace] = shell
            s.order.append(trace)
            if s.order.count > Self.capacity, let oldest = s.order.popFirst() { s.owners[oldest] = nil }
        }
    }

    /// The shell that started `trace`, if a shell did.
    func owner(of trace: UInt64) -> Int? {
        state.withLock { $0.owners[trace] }
    }
}
