import KarcAsync
import KarcLanguage

/// What the shell needs from a cluster: its commands, a way to send them,
/// what happened since the last look, and a way to wait until it is quiet.
///
/// `ClusterShell` (module `KarcShellTrellis`) adapts a Trellis `Cluster`;
/// conform your own type to put the shell in front of something else, and
/// this module is all you link (no Trellis). What a cluster can do beyond
/// sending and observing is a protocol of its own, which the shell learns
/// from its type: ``ResettableShellCluster`` (`:reset`),
/// ``RestorableShellCluster`` (`:snapshot`, `:restore`, `:undo`) and
/// ``InvariantCheckingShellCluster`` (invariants checked after every
/// command, and `explore`'s search for a sequence that breaks one).
public protocol ShellCluster: Sendable {
    /// Names the cluster in the prompt and in `:help`.
    var name: String { get }
    /// The targets and their commands.
    var catalog: Catalog { get }
    /// Sends `command` (a value of one of `target`'s command types); returns its reply, if any.
    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)?
    /// ``send(_:to:)`` as the span `span`, the root of a trace whose records
    /// carry it (``ShellRecord/link``): how the shell knows which work each
    /// command caused. By default, a send the cluster does not trace.
    func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)?
    /// What started the trace `trace`, when this shell's commands did not:
    /// `another shell` (through attach), or nil for the app itself.
    func startedElsewhere(trace: UInt64) -> String?
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
    /// Ends the cluster when the shell that made it ends (a `ShellApp` of KarcShell).
    func shutDown() async
    /// How many records the shell may fall behind before the oldest are
    /// dropped (and counted, ``ShellRecord/Kind-swift.enum/lost(count:)``): also the most
    /// the session holds while its output has no room.
    var recordBuffer: Int { get }
    /// A session starts telling changes: a cluster that reports new states
    /// only (``ShellRecord/Kind-swift.enum/stateReported(target:state:)``) reports each
    /// target's next change with its old state again, so the new session
    /// has a state to tell it from.
    func sessionStarted()
    /// Who made the changes a session prints that none of its commands
    /// made, when their records carry no trace (a cluster that does not
    /// trace): `the app` by default. The shell says so: `state  counter
    /// (by the app):`. A traced change is named by its trace's root instead.
    var changesFromElsewhere: String { get }
}

/// The states of a cluster's targets at one moment (``RestorableShellCluster/snapshot()``).
public struct RestorableStates: Sendable {
    /// Each restorable target's state, by target name.
    public var states: [String: any Sendable]
    /// The targets that show a state but cannot be restored, in the cluster's order.
    public var left: [String]

    /// The states of `states`' targets; `left` names those left out.
    public init(states: [String: any Sendable], left: [String] = []) {
        self.states = states
        self.left = left
    }
}

extension ShellCluster {
    /// 100,000 records.
    public var recordBuffer: Int { 100_000 }

    /// The send, untraced.
    public func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        try await send(command, to: target)
    }

    /// Nil: only the app itself drives the cluster besides this shell.
    public func startedElsewhere(trace: UInt64) -> String? { nil }

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

    public func shutDown() async {}

    public func settled(timeout: Duration, beyond baseline: Int) async -> Bool {
        await settled(timeout: timeout)
    }
}

/// Something that happened in the cluster, as the shell prints it or
/// traces it: what (``kind-swift.property``), the span that did it
/// (``link``, its place in a causal trace) and when.
public struct ShellRecord: Sendable {
    /// What happened.
    public enum Kind: Sendable {
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
        /// `action` entered the cluster, for `target` (several joined by `,`;
        /// nil: none): a span begins (the shell's own command or one it
        /// caused). Traced, not printed.
        case sent(action: any Sendable, target: String?)
        /// The span's send answered `reply`. Traced, not printed (the shell prints its command's reply itself).
        case replied(reply: any Sendable)
        /// The span's send was handled, with no reply. Traced, not printed.
        case handled
        /// The span's send failed with `error` (one a handler caught, say). Traced, not printed.
        case sendFailed(error: any Error)

        /// Whether it only tells a trace something (a span began or ended) and is not printed.
        public var isHop: Bool {
            switch self {
            case .sent, .replied, .handled, .sendFailed: true
            default: false
            }
        }
    }

    /// What happened.
    public var kind: Kind
    /// The span that did it, when the cluster traces (``ShellCluster/send(_:to:span:)``).
    public var link: TraceLink?
    /// When it happened, when the cluster says.
    public var time: ContinuousClock.Instant? {
        get { traceTime.instant }
        set { traceTime = TraceTime(newValue) }
    }
    /// ``time`` as plain words: a record is copied on every batch a shell takes.
    package var traceTime: TraceTime

    /// A record of `kind`, made by the span `link` at `time`.
    public init(_ kind: Kind, link: TraceLink? = nil, time: ContinuousClock.Instant? = nil) {
        self.init(kind, link: link, traceTime: TraceTime(time))
    }

    /// A record of `kind`, made by the span `link` at `traceTime`.
    package init(_ kind: Kind, link: TraceLink?, traceTime: TraceTime) {
        self.kind = kind
        self.link = link
        self.traceTime = traceTime
    }

    /// `source` emitted `event`.
    public static func event(source: String, event: any Sendable) -> ShellRecord { ShellRecord(.event(source: source, event: event)) }
    /// The state of `target` went from `old` to `new`.
    public static func stateChanged(target: String, old: any Sendable, new: any Sendable) -> ShellRecord {
        ShellRecord(.stateChanged(target: target, old: old, new: new))
    }
    /// The state of `target` is now `state` (the cluster kept none from before).
    public static func stateReported(target: String, state: any Sendable) -> ShellRecord {
        ShellRecord(.stateReported(target: target, state: state))
    }
    /// A middleware (`by`) replaced `action` with `to`.
    public static func redirected(by: String, action: any Sendable, to: [any Sendable]) -> ShellRecord {
        ShellRecord(.redirected(by: by, action: action, to: to))
    }
    /// Work not started by a shell command failed.
    public static func failed(error: any Error) -> ShellRecord { ShellRecord(.failed(error: error)) }
    /// The shell fell behind and `count` records were dropped.
    public static func lost(count: Int) -> ShellRecord { ShellRecord(.lost(count: count)) }
}
