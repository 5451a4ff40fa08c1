import KarcAsync
import KarcSynchronization

/// A clock a test moves by hand, whose sleeps behave as the real clocks' do:
///
/// * a sleep until now or an instant already passed returns at once
///   (swift-clocks' `TestClock` keeps a sleep until exactly now for its next
///   move): a test can move the clock before the task that sleeps has
///   started, and the sleep still ends. The check and the wait are one step,
///   under the clock's lock, so no move falls between them;
/// * a sleep in a cancelled task throws `CancellationError`, whether the
///   cancel comes before the sleep starts or while it waits.
///
/// ``untilSleeping(count:)`` waits until the code under test sleeps, so a
/// test can move the clock short of a deadline and see that nothing woke.
public final class HandClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }

    private let state = KarcMutex(State())
    /// Told each time a sleep starts to wait, for ``untilSleeping(count:)``.
    private let registered = Changes()
    private let onRead: (@Sendable () -> Void)?

    /// `onRead`: called each time the time is read (a test moves the clock
    /// only once the code under test has read it).
    public init(onRead: (@Sendable () -> Void)? = nil) {
        self.onRead = onRead
    }

    public var now: Instant {
        // Read, then told: a test that moves the clock once told must not move it before this read.
        let now = state.withLock { $0.now }
        onRead?()
        return now
    }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { s -> Result<Void, any Error>? in
                    // A cancel sets the flag before its handler takes this lock: it is
                    // seen here, or its handler finds the sleeper listed.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= s.now { return .success(()) }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) } else { registered.changed() }
            }
        } onCancel: {
            let cancelled = state.withLock { s in s.sleepers.firstIndex { $0.id == id }.map { s.sleepers.remove(at: $0) } }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration`; the sleeps due by then end, the others wait on.
    public func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.now = s.now.advanced(by: duration)
            let now = s.now
            defer { s.sleepers.removeAll { $0.deadline <= now } }
            return s.sleepers.filter { $0.deadline <= now }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// How many sleeps wait now (one that ended, by a move or a cancel, no longer counts).
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// Returns once at least `count` sleeps wait (at once when they do), or
    /// when the waiting task is cancelled (its test's time limit). No polling:
    /// each sleep that starts to wait wakes it.
    public func untilSleeping(count: Int) async {
        _ = await registered.until { sleepers >= count }
    }
}
