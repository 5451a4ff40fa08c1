import KarcAsync

/// The commands the attached shells of one endpoint are running, and when
/// each last ended: what tells a shell that a change it did not make came
/// from another shell rather than from the app itself.
final class ShellActivity: Sendable {
    private struct State {
        var running: [Int: Int] = [:]
        var lastEnded: [Int: ContinuousClock.Instant] = [:]
        var nextShell = 0
    }

    /// How long after another shell's command a change is still taken for its doing: records
    /// reach a shell a moment after they happen (longer on a loaded machine).
    static let afterglow = Duration.seconds(1)
    private let state = KarcMutex(State())

    /// A number for a new shell, never given before.
    func newShell() -> Int {
        state.withLock { s in
            defer { s.nextShell += 1 }
            return s.nextShell
        }
    }

    func began(_ shell: Int) {
        state.withLock { $0.running[shell, default: 0] += 1 }
    }

    func ended(_ shell: Int) {
        let now = ContinuousClock.now
        state.withLock { s in
            s.running[shell, default: 1] -= 1
            if s.running[shell] == 0 { s.running[shell] = nil }
            // Bounded: only the shells whose last command is recent are kept.
            s.lastEnded = s.lastEnded.filter { now - $0.value < Self.afterglow }
            s.lastEnded[shell] = now
        }
    }

    /// The shell left; its last command still counts for a moment (a script's ends just before it leaves).
    func left(_ shell: Int) {
        state.withLock { _ = $0.running.removeValue(forKey: shell) }
    }

    /// Whether a shell other than `shell` runs a command, or ended one a moment ago.
    func othersActive(besides shell: Int) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { s in
            s.running.keys.contains { $0 != shell } || s.lastEnded.contains { $0.key != shell && now - $0.value < Self.afterglow }
        }
    }
}
