import KarcLanguage

/// What the shell needs from a cluster: its commands, a way to send them,
/// what happened since the last look, and a way to wait until it is quiet.
///
/// `ClusterShell` (module `KarcShellTrellis`) adapts a Trellis `Cluster`;
/// conform your own type to put the shell in front of something else, and
/// this module is all you link (no Trellis).
public protocol ShellCluster: Sendable {
    /// Names the cluster in the prompt and in `:help`.
    var name: String { get }
    /// The targets and their commands.
    var catalog: Catalog { get }
    /// Sends `command` (a value of one of `target`'s command types); returns its reply, if any.
    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)?
    /// What happened since the last call (events, state changes, redirects, failures), oldest first.
    func takeRecords() -> [ShellRecord]
    /// Waits until something happens and returns it (as ``takeRecords()``
    /// would); nil when the waiting task is cancelled or the cluster ended.
    /// The prompt and `:wait` wait here instead of polling.
    func nextRecords() async -> [ShellRecord]?
    /// Waits until the work in flight is done; false if `timeout` passed first.
    func settled(timeout: Duration) async -> Bool
    /// The current state of `target`, or nil when it has none.
    func state(of target: String) async -> (any Sendable)?
    /// Units of work in flight now; nil when the cluster cannot tell.
    var workInFlight: Int? { get }
    /// Waits until at most `baseline` units of work are in flight (work that
    /// ran before a command, like a send that timed out, may go on).
    func settled(timeout: Duration, beyond baseline: Int) async -> Bool
    /// Ends the cluster when the shell that made it ends (`Shell.main(name:abstract:version:shellCluster:)` in KarcShell).
    func shutDown() async
    /// How many records the shell may fall behind before the oldest are
    /// dropped (and counted, ``ShellRecord/lost(count:)``): also the most
    /// the session holds while its output has no room.
    var recordBuffer: Int { get }
    /// A session starts telling changes: a cluster that reports new states
    /// only (``ShellRecord/stateReported(target:state:)``) reports each
    /// target's next change with its old state again, so the new session
    /// has a state to tell it from.
    func sessionStarted()
    /// Who made the changes a session prints that none of its commands
    /// made (a timer's, say): `the app` (the default), or, in front of a
    /// cluster other shells drive too, `another shell` while one of them
    /// runs a command. The shell says so: `state  counter (from the app):`.
    var changesFromElsewhere: String { get }
    /// The invariants its targets declare that do not hold now, each named
    /// with its target (`'stock never negative' of inventory`): the shell
    /// asks after every command. None, by default.
    func brokenInvariants() async -> [String]
    /// Whether any target declares an invariant: when none does, the shell
    /// does not ask (an `await` a command saved).
    var declaresInvariants: Bool { get }
}

extension ShellCluster {
    /// 100,000 records.
    public var recordBuffer: Int { 100_000 }

    /// For a cluster that cannot push: looks every few milliseconds.
    public func nextRecords() async -> [ShellRecord]? {
        while !Task.isCancelled {
            let records = takeRecords()
            if !records.isEmpty { return records }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    public var workInFlight: Int? { nil }

    /// Nothing to do for a cluster that reports every old state.
    public func sessionStarted() {}

    /// `the app`: nothing but the app itself drives the cluster.
    public var changesFromElsewhere: String { "the app" }

    /// None: the cluster declares no invariants.
    public func brokenInvariants() async -> [String] { [] }

    /// False: the cluster declares no invariants.
    public var declaresInvariants: Bool { false }

    public func shutDown() async {}

    public func settled(timeout: Duration, beyond baseline: Int) async -> Bool {
        await settled(timeout: timeout)
    }
}

/// Something that happened in the cluster, as the shell prints it.
public enum ShellRecord: Sendable {
    /// `source` emitted `event`.
    case event(source: String, event: any Sendable)
    /// The state of `target` went from `old` to `new`.
    case stateChanged(target: String, old: any Sendable, new: any Sendable)
    /// The state of `target` is now `state`, and the cluster kept no state
    /// from before the change: the shell compares it with the last state it
    /// printed. A cluster whose targets change their state in place (a long
    /// list appended to) reports this way so that nothing holds the old state.
    case stateReported(target: String, state: any Sendable)
    /// A middleware (`by`) replaced `action` with `to` (an action blocked or postponed).
    case redirected(by: String, action: any Sendable, to: [any Sendable])
    /// Work not started by a shell command failed (an emitter, a timer).
    case failed(error: any Error)
    /// The shell fell behind and `count` records were dropped.
    case lost(count: Int)
}
