@_spi(KarcInternal) import KarcAsync
import KarcOutput

/// How a session waits. Every wait a command makes (a send, a settle, a
/// script's next line, the cluster's records, room in the output) is a race
/// of the work, run on the session's executor, against a deadline on its
/// clock, Ctrl-C (``Interrupter``) and whatever else may wake it; the work
/// that loses goes on in the background, and what it gives later is kept:
/// records in the backlog, replies in ``LateReplies``.
///
/// ```
///  work (send, settle, nextRecords) ──▶ race ◀── deadline alarm (ShellClock)
///                                        ▲   ◀── Ctrl-C (Interrupter)
///                                        │   ◀── alsoWake (late reply, room)
///            lost: records ──▶ HeldRecords, replies ──▶ LateReplies
/// ```
final class SessionWaits {
    let cluster: any ShellCluster
    /// The clock every wait and timing reads, and the executor the work runs on.
    let runtime: ShellRuntime
    /// Ctrl-C while a command runs (the prompt's editor or a script's signal handler triggers it).
    let interrupter: Interrupter
    /// Sends given up on that answer later.
    let lateReplies = LateReplies()
    /// A send given up on failed when its outcome came: the run's status is 1.
    var failedLate = false
    /// Records taken and not printed yet (``RecordBacklog``).
    private let backlog: HeldRecords

    init(cluster: any ShellCluster, runtime: ShellRuntime, interrupter: Interrupter) {
        self.cluster = cluster
        self.runtime = runtime
        self.interrupter = interrupter
        backlog = HeldRecords(limit: cluster.recordBuffer)
    }

    /// How a ``race(until:alsoWake:cancelling:interruptible:late:_:)`` ended.
    enum Raced<T: Sendable>: Sendable {
        case finished(T)
        case deadline
        case interrupted
        /// What `alsoWake` registered the wake-up with called it.
        case woken

        var isFinished: Bool { if case .finished = self { true } else { false } }
    }

    /// Runs `body` on the session's executor and waits for the first of: its
    /// result, `deadline`, Ctrl-C (when `interruptible`), or the wake-up
    /// `alsoWake` registers. When it is not the result, `body` goes on in the
    /// background (cancelled, with `cancelling`), and its result goes to
    /// `late` when it comes; with `cancelling`, before this returns, so what
    /// `late` keeps comes before anything the caller takes next.
    func race<T: Sendable>(
        until deadline: ShellClock.Instant? = nil,
        alsoWake: ((@escaping @Sendable () -> Void) -> Void)? = nil,
        cancelling: Bool = false,
        interruptible: Bool = true,
        late: @escaping @Sendable (T) -> Void = { _ in },
        _ body: @escaping @Sendable () async -> T
    ) async -> Raced<T> {
        let result = Pending<Raced<T>>()
        let (clock, executor) = (runtime.clock, runtime.executor)
        // Started on this thread (the session's executor) and run until it first waits: a store's
        // send usually answers in that one stretch, and then there is nothing to race.
        let task = Task.immediate(executorPreference: executor) {
            let value = await body()
            if !result.finish(.finished(value)) { late(value) }
        }
        if let done = result.finished { return done }
        let end: @Sendable (Raced<T>) -> Void = { outcome in
            if result.finish(outcome), cancelling { task.cancel() }
        }
        let alarm = deadline.map { clock.arm(at: $0) { end(.deadline) } }
        alsoWake? { end(.woken) }
        let outcome =
            interruptible ? await interrupter.whileWaiting(onInterrupt: { end(.interrupted) }) { await result.value() } : await result.value()
        alarm.map(clock.disarm)
        // A cancelled body ends promptly (a wait for records returns what it has, or nothing); its
        // late result must land before the caller goes on: records taken after it are newer.
        if cancelling, outcome?.isFinished != true { await task.value }
        // `result` is never finished with nil (a wait given up on); were it, the wait was let go.
        return outcome ?? .interrupted
    }

    /// `body`'s result, or nil when Ctrl-C came first (`body` then goes on in the background).
    func interruptible<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T? {
        if case .finished(let value) = await race(body) { return value }
        return nil
    }

    /// Sends, waiting at most `timeout` for the reply: a command that never
    /// answers must not hang a script. After a timeout (or Ctrl-C) the send
    /// goes on in the background, and its reply is printed, marked late,
    /// when it comes. The timeout is an alarm, not a sleeping task raced
    /// against the send: at thousands of commands a second, a timer each was
    /// a fifth of the cost.
    func send(
        _ command: any Sendable, to target: String, span: UInt64, command origin: LateReplies.Origin, timeout: Duration
    ) async -> SendOutcome {
        let (cluster, late) = (self.cluster, lateReplies)
        let token = late.token()
        let raced = await race(until: runtime.clock.now + timeout, late: { late.arrived(token, $0) }) { () -> SendOutcome in
            do {
                return .replied(try await cluster.send(command, to: target, span: span))
            } catch {
                return .threw(error)
            }
        }
        switch raced {
        case .finished(let outcome): return outcome
        case .deadline:
            late.gaveUp(token, command: origin)
            return .timedOut
        case .interrupted, .woken:
            late.gaveUp(token, command: origin)
            return .interrupted
        }
    }

    /// What happened since the last look: the records held (``RecordBacklog``) first, then the cluster's.
    func takeRecords() -> [ShellRecord] {
        let held = backlog.take()
        // Most takes hold nothing back: the cluster's batch as it came, not copied into a new array.
        return held.isEmpty ? cluster.takeRecords() : held + cluster.takeRecords()
    }

    /// Keeps `records` for the next look: the output had no room for them.
    func hold(_ records: [ShellRecord]) {
        backlog.append(records)
    }

    /// ``nextRecords(until:interruptible:alsoWake:)`` for a wait that prints
    /// what comes as it comes: while `room` has none, room wakes it too (what
    /// comes meanwhile is ``hold(_:)``'s to keep), and once it has, what was
    /// held comes first.
    func nextRecords(until deadline: ShellClock.Instant, room: (any OutputRoom)?) async -> [ShellRecord] {
        var records: [ShellRecord]
        if let room, !room.hasRoom {
            records = await nextRecords(until: deadline) { wake in room.onRoom(wake) }
        } else {
            records = await nextRecords(until: deadline)
        }
        if room?.hasRoom != false {
            let held = backlog.take()
            if !held.isEmpty { records = held + records }
        }
        return records
    }

    /// Returns once `room` has room (``OutputRoom``), taking the cluster's
    /// records into the backlog meanwhile; false when Ctrl-C ended the wait
    /// (`interruptible`: a script's line, or a line typed ahead at the
    /// prompt; not the idle prompt's wait before it prints). A Ctrl-C that
    /// came during the wait ends it even if a line arriving after it reset
    /// the interrupter (an attached shell that sends lines in batches).
    func waitFor(_ room: any OutputRoom, interruptible: Bool) async -> Bool {
        let backlog = self.backlog
        let since = interrupter.triggers
        while !room.hasRoom {
            if interruptible, interrupter.hasTriggered(since: since) { return false }
            let records = await nextRecords(until: nil, interruptible: interruptible) { wake in room.onRoom(wake) }
            backlog.append(records)
            if records.isEmpty, !room.hasRoom {
                // The cluster's records ended (it shut down) or Ctrl-C came: only room is left to wait for,
                // not records that return at once.
                if interruptible, interrupter.hasTriggered(since: since) { return false }
                _ = await race(interruptible: interruptible) {
                    await withCheckedContinuation { (roomCame: CheckedContinuation<Void, Never>) in room.onRoom { roomCame.resume() } }
                }
            }
        }
        return true
    }

    /// Waits until records come (pushed by the cluster), `deadline` passes,
    /// Ctrl-C, or whatever `alsoWake` registers the wake-up with calls it;
    /// returns what came (nothing for the others).
    func nextRecords(
        until deadline: ShellClock.Instant?, interruptible: Bool = true, alsoWake: ((@escaping @Sendable () -> Void) -> Void)? = nil
    ) async -> [ShellRecord] {
        let (cluster, backlog) = (self.cluster, self.backlog)
        // Records taken too late (something else woke the wait first) are kept for the next look, not lost.
        let raced = await race(until: deadline, alsoWake: alsoWake, cancelling: true, interruptible: interruptible, late: { backlog.append($0) }) {
            await cluster.nextRecords() ?? []
        }
        if case .finished(let records) = raced { return records }
        return []
    }
}
