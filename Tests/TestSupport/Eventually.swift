/// Waits until `condition` holds, for at most `bound` (5 s) of real time, so
/// a broken test fails instead of hanging. Never a timing assertion: it
/// returns as soon as the condition holds.
public func eventually(within bound: Duration = .seconds(5), _ condition: @Sendable () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: bound)
    var attempt = 0
    while clock.now < deadline {
        if await condition() { return true }
        attempt += 1
        if attempt < 1_000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
    }
    return await condition()
}
