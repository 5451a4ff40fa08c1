/// How many messages the inspector's front makes while the session runs
/// fast: a bucket of `capacity` that fills at `perSecond`. A person at a
/// prompt never empties it; a piped script of thousands of commands a
/// second does, and what finds it empty is skipped (counted, and said on
/// the page) rather than made: making a message is most of what watching
/// costs the session.
struct InspectorBudget {
    let capacity: Double
    let perSecond: Double
    private var tokens: Double
    private var last: Duration?

    init(capacity: Int = 1_000, perSecond: Int = 1_000) {
        self.capacity = Double(max(1, capacity))
        self.perSecond = Double(max(1, perSecond))
        tokens = self.capacity
    }

    /// Whether one more message may be made at `now` (a time on one clock, from any origin).
    mutating func take(at now: Duration) -> Bool {
        refill(at: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// One message made whatever is left (a shown command's end): what
    /// follows waits for it to be paid back, down to one bucket in debt.
    mutating func spend(at now: Duration) {
        refill(at: now)
        tokens = max(-capacity, tokens - 1)
    }

    private mutating func refill(at now: Duration) {
        if let last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(capacity, tokens + max(0, seconds) * perSecond)
        }
        last = now
    }
}
