import KarcShell

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

/// What an attached prompt says while the app is away: the reason and the
/// first pause once, once more when the tries have slowed to their longest
/// pause, and nothing else (the prompt says `(offline)` meanwhile), so a
/// long outage does not fill the screen.
struct OutageNotices {
    private var told = false
    private var toldSlowest = false

    /// What to print before waiting `pause` after `reason`; nil: nothing.
    mutating func before(_ pause: Duration, reason: String) -> String? {
        if !told {
            told = true
            return "\(reason)\nreconnecting in \(ShellDuration.describe(pause)) (:quit or Ctrl-D leaves; :help lists the commands)\n"
        }
        guard pause >= ReconnectPause.longest, !toldSlowest else { return nil }
        toldSlowest = true
        return "still no connection; trying again every \(ShellDuration.describe(pause)), quietly\n"
    }
}
