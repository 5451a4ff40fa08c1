/// Waits until `condition` holds, and returns true; false only when the
/// test is cancelled first (its suite's time limit, which then fails it by
/// name) or, when a `bound` is given, once that much time has passed. Never
/// a timing assertion: it returns as soon as the condition holds, however
/// loaded the machine (a fixed real-time bound failed tests that were only
/// slow under load).
public func eventually(within bound: Duration? = nil, _ condition: @Sendable () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = bound.map { clock.now.advanced(by: $0) }
    var attempt = 0
    while !Task.isCancelled, deadline.map({ clock.now < $0 }) ?? true {
        if await condition() { return true }
        attempt += 1
        if attempt < 1_000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
    }
    return await condition()
}
