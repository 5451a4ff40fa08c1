/// When a record was made, or that it has no time, as plain words.
///
/// `ContinuousClock.Instant` is resilient: an optional one is copied and
/// tested through value witnesses, which on every record of a watched app
/// cost more than the rest of its stamp. This is a `Duration` (frozen) from
/// a process-wide epoch.
package struct TraceTime: Sendable, Equatable {
    private let sinceEpoch: Duration
    private let isSet: Bool

    /// No time.
    package static var none: TraceTime { TraceTime(sinceEpoch: .zero, isSet: false) }

    /// Now.
    package static var now: TraceTime { TraceTime(ContinuousClock.now) }

    private init(sinceEpoch: Duration, isSet: Bool) {
        self.sinceEpoch = sinceEpoch
        self.isSet = isSet
    }

    /// `instant`, exactly.
    package init(_ instant: ContinuousClock.Instant) {
        self.init(sinceEpoch: Self.epoch.duration(to: instant), isSet: true)
    }

    /// `instant`, or ``none``.
    package init(_ instant: ContinuousClock.Instant?) {
        guard let instant else {
            self = .none
            return
        }
        self.init(instant)
    }

    /// The instant, exactly as it was given; nil for ``none``.
    package var instant: ContinuousClock.Instant? { isSet ? Self.epoch.advanced(by: sinceEpoch) : nil }

    /// What times count from: an instant has no public zero.
    private static let epoch = ContinuousClock.now
}
