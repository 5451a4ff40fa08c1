import KarcAsync
import KarcSession
import KarcSynchronization

/// The clock `explore` gives a cluster it builds (KarcShell's
/// `ShellClusterUse.explore(clock:)`): time stands still while a command
/// runs and moves on by `--advance` between commands (and while a command
/// waits on it), so timers fire at the same point of every replay of a
/// sequence.
///
/// ```swift
/// case .explore(let clock): options.clock = clock  // the cluster's timers wait on it
/// ```
public final class ExploreClock: Clock, Sendable {
    /// A moment: how long after the clock was made.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock was made.
        public var offset: Duration

        /// The moment `offset` after the clock was made.
        public init(offset: Duration) { self.offset = offset }

        /// The moment `duration` after this one.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// How long from this moment to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
    }

    private let state = KarcMutex(State())

    /// A clock at zero.
    public init() {}

    /// Now: the sum of every ``advance(by:)`` so far.
    public var now: Instant { state.withLock { $0.now } }
    /// The smallest step: none, time moves only when told.
    public var minimumResolution: Duration { .zero }

    /// Waits until the clock reaches `deadline` (at once when it has);
    /// throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { s in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= s.now { return .success(()) }
                    s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration` and wakes, earliest first, every sleeper
    /// whose deadline it reached; how many it woke.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        let woken = state.withLock { s -> [Sleeper] in
            s.now = s.now.advanced(by: duration)
            let due = s.sleepers.filter { $0.value.deadline <= s.now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { s.sleepers[id] = nil }
            return due.map(\.value)
        }
        for sleeper in woken { sleeper.continuation.resume() }
        return woken.count
    }

    /// Sleepers waiting for a later moment.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }
}

extension ExploreClock: Equatable {
    /// The same clock.
    public static func == (lhs: ExploreClock, rhs: ExploreClock) -> Bool { lhs === rhs }
}
