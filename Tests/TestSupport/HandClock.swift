import KarcAsync

/// A clock a test moves by hand. Unlike swift-clocks' `TestClock`, a sleep
/// until an instant already passed returns at once, as the real clocks'
/// do: a test can move the clock before the task that sleeps has started,
/// and the sleep still ends (the check and the wait are one step, under the
/// clock's lock, so no move falls between them).
public final class HandClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = KarcMutex(State())
    private let onRead: (@Sendable () -> Void)?

    /// `onRead`: called each time the time is read (a test moves the clock
    /// only once the code under test has read it).
    public init(onRead: (@Sendable () -> Void)? = nil) {
        self.onRead = onRead
    }

    public var now: Instant {
        onRead?()
        return state.withLock { $0.now }
    }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        await withCheckedContinuation { continuation in
            let passed = state.withLock { s -> Bool in
                guard deadline > s.now else { return true }
                s.sleepers.append((deadline, continuation))
                return false
            }
            if passed { continuation.resume() }
        }
    }

    /// Moves the clock on by `duration`; the sleeps due by then end.
    public func advance(by duration: Duration) {
        let due = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.now = s.now.advanced(by: duration)
            let now = s.now
            defer { s.sleepers.removeAll { $0.deadline <= now } }
            return s.sleepers.filter { $0.deadline <= now }.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}
