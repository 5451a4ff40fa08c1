import KarcAsync
import KarcHistory
import KarcLanguage
import KarcOutput
import KarcRendering
import KarcTrace

/// What a meta command may use of the session that runs it: its output,
/// its settings, its cluster, what it keeps (commands, traces, states,
/// snapshots, files written), and the steps of a command's flow a meta
/// command takes (print what arrived, restore states, run a script's
/// lines, as `:source` does). Not the session itself: a meta command does
/// not parse or send a command of its own, nor reach the prompt or the
/// terminal; what it changes of what the session keeps it changes in place
/// (``updateLog(_:)``, ``updateStates(_:)``, ``updateIO(_:)``), never
/// through a copy written back.
///
/// ```
///  ShellSession ── meta(name, arguments) ──▶ MetaCommands.named ──▶ run(call, in: MetaContext)
///                                                                       │ output, options, cluster,
///                                                                       │ log, traces, states, files
/// ```
struct MetaContext {
    private let session: ShellSession

    init(_ session: ShellSession) {
        self.session = session
    }

    // MARK: Output and settings

    /// Where what the command says goes.
    var renderer: Renderer { session.renderer }
    /// The session's options: `:timing`, `:diff` and `:events` change them.
    var options: ShellOptions {
        get { session.options }
        nonmutating set { session.options = newValue }
    }

    /// Prints `message` as an error at `call`'s line, pointing at `column` (the call's, unless given).
    func fail(_ message: String, column: Int? = nil, in call: MetaCall, outcome: CommandOutcome = .failed) -> CommandOutcome {
        session.fail(message, column: column, in: call, outcome: outcome)
    }

    // MARK: The cluster

    /// The cluster as a meta command sees it: its name, catalog and states.
    /// Its records and sends are the session's: ``follow(until:stop:)``,
    /// ``printArrived(background:)`` and ``settle()`` take and wait on them.
    var cluster: any DescribedShellCluster { session.cluster }
    /// What the cluster can do beyond sending and observing.
    var capabilities: ShellClusterCapabilities { session.capabilities }
    /// How a target's name is resolved as the command language does.
    var builder: CommandBuilder { session.builder }
    /// Each target's state now.
    func targetStates() async -> [(target: String, state: any Sendable)] { await session.targetStates() }
    /// The session's clock: deadlines of `:wait` and `:sleep`.
    var clock: ShellClock { session.waits.runtime.clock }
    /// Whether Ctrl-C came while the command ran.
    var isInterrupted: Bool { session.interrupter.isTriggered }
    /// Prints what the cluster did since the last look; the targets whose state changed.
    @discardableResult
    func printArrived(background: Bool = false) -> [String] { session.printArrived(background: background) }
    /// Prints what the cluster does as it comes, until `stop` is true of what came, `deadline` or Ctrl-C.
    func follow(until deadline: ShellClock.Instant, stop: ([ShellRecord]) -> Bool = { _ in false }) async -> ShellSession.Followed {
        await session.follow(until: deadline, stop: stop)
    }
    /// Waits until the work the command started is done, at most the session's timeout.
    func settle() async { _ = await session.cluster.settled(timeout: session.options.timeout) }
    /// ``settle()``, which Ctrl-C ends: false when it did.
    func settleUnlessInterrupted() async -> Bool {
        let (cluster, timeout) = (session.cluster, session.options.timeout)
        return await session.waits.interruptible({ await cluster.settled(timeout: timeout) }) != nil
    }

    // MARK: What the session keeps

    /// Commands run, their outcomes and output, test steps.
    var log: SessionLog { session.log }
    /// Changes the log where it is (a copy changed and written back would copy its buffers whole).
    @discardableResult
    func updateLog<T>(_ change: (inout SessionLog) -> T) -> T { change(&session.log) }
    /// The traces seen (read: `:trace` and `:seq` draw them through the session's own steps).
    var traces: TraceBook { session.traces }
    /// Changes (`:blame`), watches and snapshots.
    var states: StateHistory { session.states }
    /// Changes what the session keeps of states where it is.
    @discardableResult
    func updateStates<T>(_ change: (inout StateHistory) -> T) -> T { change(&session.states) }
    /// Prints the trace of the command `seq`; false when none was kept.
    func printTrace(ofCommand seq: Int) -> Bool { session.printTrace(ofCommand: seq) }
    /// The flow of some commands, as `:seq` and `:export-diagram` draw it.
    func flow(_ argument: Located<String>?, for command: String, defaultAll: Bool = false) -> Result<FlowDiagram, FlowProblem> {
        session.flow(argument, for: command, defaultAll: defaultAll)
    }

    // MARK: Parts and snapshots

    func watchedPart(_ argument: Located<String>, in call: MetaCall) -> WatchedPart? { session.watchedPart(argument, in: call) }
    func checkedPart(_ argument: Located<String>, in call: MetaCall) async -> WatchedPart? { await session.checkedPart(argument, in: call) }
    func value(of part: WatchedPart) async -> Result<Any, StatePath.PathError>? { await session.value(of: part) }
    func snapshotName(_ argument: Located<String>, in call: MetaCall) -> String? { session.snapshotName(argument, in: call) }
    func keptSnapshot(_ argument: Located<String>, in call: MetaCall) -> Snapshots.Kept? { session.keptSnapshot(argument, in: call) }
    func takeSnapshot(named name: String, in call: MetaCall) async -> Snapshots.Kept? { await session.takeSnapshot(named: name, in: call) }
    func keep(snapshot kept: Snapshots.Kept) { session.keep(snapshot: kept) }
    func info(_ snapshot: Snapshots.Kept) -> OutputEvent.SnapshotInfo { session.info(snapshot) }
    /// Puts `states` back through the cluster and prints what changed; false after saying why not.
    func restore(_ states: [String: any Sendable], undoing: Bool, in call: MetaCall) async -> Bool {
        await session.restore(states, undoing: undoing, in: call)
    }

    // MARK: Files and scripts

    /// Where files and the pager are.
    var host: any ShellHost { session.host }
    /// Where lines come from (`:source`'s depth) and the files this session wrote.
    var io: SessionIO { session.io }
    /// Changes `:source`'s depth or the files written, where they are.
    func updateIO(_ change: (inout SessionIO) -> Void) { change(&session.io) }
    /// Writes `text` to `file` unless a file there that this session did not write would be replaced without `force`.
    func write(_ text: String, to file: Located<String>, force: Bool, replace: String, in call: MetaCall) async -> Bool {
        await session.write(text, to: file, force: force, replace: replace, in: call)
    }
    /// Runs a script's lines in the session (`:source`).
    var scriptRunner: ScriptRunner { ScriptRunner(session: session) }

    /// Starts the browser inspector, or finds it started; a front it gives is subscribed (`:inspect`).
    func startInspector() async -> Result<String, InspectorFailure> { await session.startInspector() }
}
