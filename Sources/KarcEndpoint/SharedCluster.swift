import KarcAsync
import KarcLanguage
import KarcSession

/// The commands the attached shells of one endpoint are running, and when
/// each last ended: what tells a shell that a change it did not make came
/// from another shell rather than from the app itself.
final class ShellActivity: Sendable {
    private struct State {
        var running: [ObjectIdentifier: Int] = [:]
        var lastEnded: [ObjectIdentifier: ContinuousClock.Instant] = [:]
    }

    /// How long after another shell's command a change is still taken for its doing: records
    /// reach a shell a moment after they happen.
    static let afterglow = Duration.milliseconds(250)
    private let state = KarcMutex(State())

    func began(_ shell: ObjectIdentifier) {
        state.withLock { $0.running[shell, default: 0] += 1 }
    }

    func ended(_ shell: ObjectIdentifier) {
        state.withLock { s in
            s.running[shell, default: 1] -= 1
            if s.running[shell] == 0 { s.running[shell] = nil }
            s.lastEnded[shell] = .now
        }
    }

    func left(_ shell: ObjectIdentifier) {
        state.withLock { s in
            s.running[shell] = nil
            s.lastEnded[shell] = nil
        }
    }

    /// Whether a shell other than `shell` runs a command, or ended one a moment ago.
    func othersActive(besides shell: ObjectIdentifier) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { s in
            s.running.keys.contains { $0 != shell } || s.lastEnded.contains { $0.key != shell && now - $0.value < Self.afterglow }
        }
    }
}

/// The cluster as one attached shell drives it: its sends are counted in
/// the endpoint's ``ShellActivity``, so that a change none of its commands
/// made says whether another shell's command or the app made it (a guess
/// from timing: two shells' commands at once are told apart only by the
/// cause each record carries, which the shell does not have yet).
final class SharedCluster: ShellCluster {
    let base: any ShellCluster
    private let activity: ShellActivity

    init(base: any ShellCluster, activity: ShellActivity) {
        self.base = base
        self.activity = activity
    }

    deinit {
        activity.left(ObjectIdentifier(self))
    }

    var name: String { base.name }
    var catalog: Catalog { base.catalog }

    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
        activity.began(ObjectIdentifier(self))
        defer { activity.ended(ObjectIdentifier(self)) }
        return try await base.send(command, to: target)
    }

    var changesFromElsewhere: String {
        activity.othersActive(besides: ObjectIdentifier(self)) ? "another shell" : base.changesFromElsewhere
    }

    func takeRecords() -> [ShellRecord] { base.takeRecords() }
    var recordBuffer: Int { base.recordBuffer }
    func nextRecords() async -> [ShellRecord]? { await base.nextRecords() }
    func settled(timeout: Duration) async -> Bool { await base.settled(timeout: timeout) }
    func state(of target: String) async -> (any Sendable)? { await base.state(of: target) }
    var workInFlight: Int? { base.workInFlight }
    func settled(timeout: Duration, beyond baseline: Int) async -> Bool { await base.settled(timeout: timeout, beyond: baseline) }
    func sessionStarted() { base.sessionStarted() }
}
