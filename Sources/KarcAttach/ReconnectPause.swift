/// How long an attached prompt waits before it tries to reconnect: 500 ms
/// after the connection is lost, twice as long after each try that fails,
/// at most 10 s; back to 500 ms once a try has connected, so an app that
/// restarts a second time is not waited for as long as the last outage lasted.
struct ReconnectPause {
    static let first = Duration.milliseconds(500)
    static let longest = Duration.seconds(10)

    private var next = first

    /// The pause before the next try. `newOutage`: the connection had come
    /// back since the last try (or this is the first outage).
    mutating func take(newOutage: Bool) -> Duration {
        if newOutage { next = Self.first }
        defer { next = min(next * 2, Self.longest) }
        return next
    }
}
