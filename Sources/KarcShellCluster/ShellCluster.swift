import KarcAsync
import KarcLanguage

/// What the shell needs from a cluster: its commands, a way to send them,
/// what happened since the last look, and a way to wait until it is quiet —
/// three small protocols, so a part of the shell that only sends, or only
/// observes, says so in its type.
///
/// `ClusterShell` (module `KarcShellTrellis`) adapts a Trellis `Cluster`;
/// conform your own type to put the shell in front of something else, and
/// this module is all you link (no Trellis). What a cluster can do beyond
/// sending and observing is a protocol of its own, which the shell learns
/// from its type: ``ResettableShellCluster`` (`:reset`),
/// ``RestorableShellCluster`` (`:snapshot`, `:restore`, `:undo`) and
/// ``InvariantCheckingShellCluster`` (invariants checked after every
/// command, and `explore`'s search for a sequence that breaks one).
///
/// ```
///  DescribedShellCluster   name, catalog, state(of:)          :help, completion, :state
///  SendingShellCluster     send, settled, workInFlight        each command, :wait, :sleep
///  ObservedShellCluster    takeRecords, nextRecords, …        what the shell prints
/// ```
public protocol ShellCluster: DescribedShellCluster, SendingShellCluster, ObservedShellCluster {}

/// A cluster as the shell describes it: its name, its targets and their
/// commands, and each target's state now.
public protocol DescribedShellCluster: Sendable {
    /// Names the cluster in the prompt and in `:help`.
    var name: String { get }
    /// The targets and their commands.
    var catalog: Catalog { get }
    /// The current state of `target`, or nil when it has none.
    func state(of target: String) async -> (any Sendable)?
}

/// A cluster the shell sends commands to and waits on until the work they
/// started is done.
public protocol SendingShellCluster: Sendable {
    /// Sends `command` (a value of one of `target`'s command types); returns its reply, if any.
    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)?
    /// ``send(_:to:)`` as the span `span`, the root of a trace whose records
    /// carry it (``ShellRecord/link``): how the shell knows which work each
    /// command caused. By default, a send the cluster does not trace.
    func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)?
    /// Waits until the work in flight is done; false if `timeout` passed first.
    func settled(timeout: Duration) async -> Bool
    /// Units of work in flight now; nil when the cluster cannot tell.
    var workInFlight: Int? { get }
    /// Waits until at most `baseline` units of work are in flight (work that
    /// ran before a command, like a send that timed out, may go on).
    func settled(timeout: Duration, beyond baseline: Int) async -> Bool
    /// Ends the cluster when the shell that made it ends (a `ShellApp` of KarcShell).
    func shutDown() async
}

/// A cluster that tells the shell what happened in it, as records, in the
/// order it happened.
public protocol ObservedShellCluster: Sendable {
    /// What happened since the last call (events, state changes, redirects, failures), oldest first.
    func takeRecords() -> [ShellRecord]
    /// Waits until something happens and returns it (as ``takeRecords()``
    /// would); nil when the waiting task is cancelled or the cluster ended.
    /// The prompt and `:wait` wait here instead of polling.
    func nextRecords() async -> [ShellRecord]?
    /// How many records the shell may fall behind before the oldest are
    /// dropped (and counted, ``ShellRecord/Kind-swift.enum/lost(count:)``): also the most
    /// the session holds while its output has no room.
    var recordBuffer: Int { get }
    /// A session starts telling changes: a cluster that reports new states
    /// only (``ShellRecord/Kind-swift.enum/stateReported(target:state:)``) reports each
    /// target's next change with its old state again, so the new session
    /// has a state to tell it from.
    func sessionStarted()
    /// What started the trace `trace`, when this shell's commands did not:
    /// `another shell` (through attach), or nil for the app itself.
    func startedElsewhere(trace: UInt64) -> String?
    /// Who made the changes a session prints that none of its commands
    /// made, when their records carry no trace (a cluster that does not
    /// trace): `the app` by default. The shell says so: `state  counter
    /// (by the app):`. A traced change is named by its trace's root instead.
    var changesFromElsewhere: String { get }
}

extension SendingShellCluster {
    /// The send, untraced.
    public func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        try await send(command, to: target)
    }

    /// Nil: the cluster cannot tell.
    public var workInFlight: Int? { nil }

    public func shutDown() async {}

    public func settled(timeout: Duration, beyond baseline: Int) async -> Bool {
        await settled(timeout: timeout)
    }
}

extension ObservedShellCluster {
    /// 100,000 records.
    public var recordBuffer: Int { 100_000 }

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

    /// Nothing to do for a cluster that reports every old state.
    public func sessionStarted() {}

    /// `the app`: nothing but the app itself drives the cluster.
    public var changesFromElsewhere: String { "the app" }
}
