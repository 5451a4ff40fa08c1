import KarcSynchronization

/// A handle that stops one observation of an emitter.
///
/// A subscription is a plain value: dropping it leaves the observation running
/// (observations made with `+=` live as long as their root emitter). Keep an
/// ``ObservationToken`` instead when the observation must end with its owner.
public struct Subscription: Sendable {
    private let onCancel: @Sendable () -> Void

    /// A subscription whose `cancel()` runs `onCancel` (it may run more than once: make it idempotent).
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// A subscription with nothing to stop.
    public static let empty = Subscription {}

    /// Stops the observation. Cancelling twice is harmless.
    public func cancel() {
        onCancel()
    }

    /// One subscription that cancels all of `subscriptions`.
    public static func combined(_ subscriptions: Subscription...) -> Subscription {
        Subscription {
            for subscription in subscriptions { subscription.cancel() }
        }
    }
}

/// Owns an observation: it stops when the token is cancelled or released.
///
/// Keep tokens in a property (or a `Set<ObservationToken>` with
/// ``store(in:)``) for as long as the observation should run.
public final class ObservationToken: Sendable, Hashable {
    private let subscription: Locked<Subscription?>

    /// A token that cancels `subscription` when cancelled or released.
    public init(_ subscription: Subscription) {
        self.subscription = Locked(subscription)
    }

    deinit {
        cancel()
    }

    /// Stops the observation; no value is delivered after the delivery in progress, if any.
    public func cancel() {
        let running = subscription.withLock { current in
            defer { current = nil }
            return current
        }
        running?.cancel()
    }

    /// Whether the observation was stopped.
    public var isCancelled: Bool {
        subscription.withLock { $0 == nil }
    }

    /// Keeps the token in `set`, like Combine's `AnyCancellable.store(in:)`.
    public func store(in set: inout Set<ObservationToken>) {
        set.insert(self)
    }

    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
