import KarcAsync
import KarcOutput
import KarcRendering

extension ShellSession {
    /// Prints records: late replies first, then events, redirects and
    /// failures in order, then one diff per changed target, then (with
    /// `:trace on`) the late work of earlier commands. `background`: no
    /// command of this session made them (they came between commands), and
    /// each change says who did: its trace's root; the changes of one trace
    /// are printed before another trace's event or redirect, so the work of
    /// several (another shell's commands, the app's) reads in its order.
    /// Returns the targets whose state changed, in the order their diffs came.
    @discardableResult
    func printRecords(_ records: consuming [ShellRecord], background: Bool = false) -> [String] {
        traces.add(records)
        for late in waits.lateReplies.take() {
            // The reply of the command's own send: its trace's root.
            let root = traces.recording(ofCommand: late.command.seq).map { TraceLink(trace: $0.trace, span: $0.trace, parent: nil) }
            keepingLate(for: late.command.seq) { renderer.linked(root) { renderer.late(late) } }
            switch late.outcome {
            case .threw: waits.failedLate = true
            case .replied(let reply?) where ValueText.failure(in: reply) != nil: waits.failedLate = true
            default: break
            }
        }
        var changes = FoldedChanges()
        /// Who made the changes folded so far (nil: the command running): one diff names one cause.
        var heldCause: ChangeCause?
        /// The trace of the change folded last: the next of the same trace has the same cause.
        var heldTrace: UInt64?
        var told: [FoldedChanges] = []
        var changed = Set<String>()
        var inOrder: [String] = []
        /// Prints the changes folded so far, one diff a target.
        func printChanges() {
            for change in changes.all {
                let cause = heldCause ?? .running
                keepingLate(for: background ? command(of: change.link) : nil) {
                    // Another's change while a command runs is not that command's output (no `seq` with `--json`).
                    let told = renderer.apart(if: cause.isElsewhere) {
                        renderer.linked(change.link) { renderer.state(target: change.target, old: change.old, new: change.new, from: cause.name) }
                    }
                    if told.printed { log.saw(state: change.new, of: change.target) }
                    if told.changed, changed.insert(change.target).inserted { inOrder.append(change.target) }
                    if let parts = told.parts, told.changed {
                        remember(
                            parts, of: change.target, old: told.old, new: change.new, link: change.link, background: background || cause.isElsewhere)
                    }
                }
            }
            told.append(changes)
            changes = FoldedChanges()
            heldCause = nil
            heldTrace = nil
        }
        /// Folds a change with those held when the same cause made them; else prints those first,
        /// so several quick changes of a target by different causes are told (and blamed) each on its own.
        func fold(target: String, old: (any Sendable)?, new: any Sendable, record: ShellRecord) {
            if changes.all.isEmpty || record.link?.trace != heldTrace {
                let cause = diffCause(of: record.link, background: background)
                // Of a flood, the roots before the last few are no longer kept: such a change is named by its neighbours.
                if !changes.all.isEmpty, heldCause != cause, !cause.isUnnamed, heldCause?.isUnnamed != true { printChanges() }
                if !cause.isUnnamed || heldCause == nil || heldCause?.isUnnamed == true { heldCause = cause }
                heldTrace = record.link?.trace
            }
            changes.add(target: target, old: old, new: new, link: record.link, time: record.traceTime)
        }
        for record in copy records {
            switch record.kind {
            case .stateChanged(let target, let old, let new):
                fold(target: target, old: old, new: new, record: record)
                continue
            case .stateReported(let target, let state):
                fold(target: target, old: nil, new: state, record: record)
                continue
            case let kind where kind.isHop:
                continue
            default:
                break
            }
            // Between commands, what other work did (another shell's, the app's) comes in its order:
            // the changes of an earlier trace before this trace's event or redirect.
            if background, changes.all.contains(where: { $0.link?.trace != record.link?.trace }) { printChanges() }
            switch record.kind {
            case .event(let source, let event):
                let late = lateCause(of: record.link)
                let owner = command(of: record.link)
                // Work no command of this session began says whose it is, as its diff does; while a command runs it is not that command's output.
                let elsewhere = !background && owner == nil && record.link != nil
                let by = owner == nil && (background || elsewhere) ? cause(of: record.link) : nil
                keepingLate(for: background ? owner : nil) {
                    // A late event is its command's output, as a late reply is (its `seq` with `--json`).
                    renderer.printing(for: late?.seq) {
                        renderer.apart(if: elsewhere) {
                            renderer.linked(record.link) {
                                renderer.event(event, from: source, typeName: log.saw(event: event, from: source), late: late?.name, by: by)
                            }
                        }
                    }
                }
            default:
                keepingLate(for: background ? command(of: record.link) : nil) { renderer.record(record) }
            }
        }
        printChanges()
        // A report that changed nothing (a store reports each run of a handler) is no hop of its trace.
        traces.confirm(changed)
        printLateWork(in: records)
        // A change that kept no old state shares the store's storage: it goes
        // now, before the next command changes that storage (then in place).
        if told.contains(where: \.holdsOldStates) { waits.runtime.disposal.drop(records, told) }
        return inOrder
    }

    /// Prints what the cluster did since the last look (``SessionWaits/takeRecords()``):
    /// the one place a command, or a wait between commands, takes records to print.
    @discardableResult
    func printArrived(background: Bool = false) -> [String] {
        printRecords(waits.takeRecords(), background: background)
    }

    /// How ``follow(until:stop:)`` ended.
    enum Followed: Sendable { case stopped, deadline, interrupted }

    /// Prints what the cluster does as it comes, as between commands (each
    /// change says who made it, each batch on its own, not folded with the
    /// next), until `stop` is true of a batch (after it is printed),
    /// `deadline` passes or Ctrl-C comes: `:wait` and `:sleep`. Woken by the
    /// cluster's records, the deadline, Ctrl-C or room: it never polls.
    ///
    /// While the output has no room (an attached shell that stopped
    /// reading), what comes is kept in the session's backlog instead (each
    /// target's changes folded into one, bounded) and printed, in order,
    /// once there is room: a `:sleep` on an app under load does not grow the
    /// output the app holds for a shell that reads nothing.
    func follow(until deadline: ShellClock.Instant, stop: ([ShellRecord]) -> Bool) async -> Followed {
        let clock = waits.runtime.clock
        let room = renderer.sink.room
        var records = waits.takeRecords()
        while true {
            let stops = stop(records)
            if let room, !room.hasRoom {
                waits.hold(records)
            } else {
                printRecords(records, background: true)
            }
            if stops { return .stopped }
            if clock.now >= deadline { return .deadline }
            if interrupter.isTriggered { return .interrupted }
            renderer.sink.flush()
            records = await waits.nextRecords(until: deadline, room: room)
        }
    }

    /// At the end of a script: waits for the replies of sends given up on
    /// (up to ten times the timeout, at least a second; Ctrl-C stops it),
    /// and prints them. False when one of them failed. On a terminal
    /// (``ShellRuntime/statusLine``) it says what it waits for, once a second.
    package func finishLateReplies() async -> Bool {
        let (clock, lateReplies) = (waits.runtime.clock, waits.lateReplies)
        let start = clock.now
        let limit = max(options.timeout * 10, .seconds(1))
        let deadline = start + limit
        var status = StatusLine(write: waits.runtime.statusLine)
        var second = 0
        while lateReplies.outstanding > 0, clock.now < deadline, !interrupter.isTriggered {
            renderer.sink.flush()
            let waited = clock.now - start
            second = max(second, Int(waited.components.seconds))
            status.show(StatusLine.waiting(for: lateReplies.waitingFor, waited: .seconds(second), limit: limit))
            // Each whole second from the start, while the line has one to say.
            second += 1
            let wake = status.isShown ? min(deadline, start + .seconds(second)) : deadline
            // Woken by a late reply, records (printed as they come), the next second, the deadline or Ctrl-C.
            let records = await waits.nextRecords(until: wake) { wake in lateReplies.onArrival(wake) }
            if !records.isEmpty || lateReplies.hasReady { status.clear() }
            printRecords(records)
        }
        status.clear()
        printArrived()
        for command in lateReplies.abandon() {
            _ = keepingLate(for: command.seq) {
                renderer.printing(for: command.seq) {
                    fail(
                        "\(command.described) did not answer (waited \(ShellDuration.describe(clock.now - start)) after the script ended)",
                        column: nil, at: Location(script: command.script, line: command.line))
                }
            }
            waits.failedLate = true
        }
        return !waits.failedLate
    }

    /// Prints, in `body`, output of the command `seq` that comes after it
    /// ended (a late reply, its trace's late part, work it set off that came
    /// between commands): `:history seq` shows it with the rest. Nothing more
    /// when `seq` is nil or the command still runs (its own tap takes it).
    func keepingLate<T>(for seq: Int?, _ body: () -> T) -> T {
        guard let seq, let ended = log.history.entry(seq), ended.outcome != nil else { return body() }
        renderer.sink.tap(seq, exclusive: true, room: ended.output.room)
        defer { log.appendLate(seq, renderer.sink.untap(seq)) }
        return body()
    }

    /// `#3 identity.login`: the command of this session whose work `link`
    /// is part of, when that is not the command printing now (a late event,
    /// or a change, of an earlier command); nil otherwise.
    func lateCause(of link: TraceLink?) -> (seq: Int, name: String)? {
        guard let origin = command(of: link), origin != renderer.seq else { return nil }
        return (origin, cause(of: link))
    }

    /// The command of this session whose trace `link` is on, if any.
    func command(of link: TraceLink?) -> Int? {
        link.flatMap { traces.recording($0.trace)?.command }
    }

    /// Who made a change, as its diff names it: between commands (`background`)
    /// always its trace's root; while a command runs, nothing when that
    /// command did (or the cluster links no records), an earlier command of
    /// this session (late), or the root of work no command of this session
    /// began (another shell's, the app's, a timer's), which is not the
    /// running command's to print as its own.
    func diffCause(of link: TraceLink?, background: Bool) -> ChangeCause {
        if background {
            if let link, link.isRootOnly, link.origin == nil, traces.recording(link.trace) == nil, traces.root(of: link.trace) == nil {
                return .unnamed(cause(of: link))
            }
            return .between(cause(of: link))
        }
        guard let link else { return .running }
        guard let owner = command(of: link) else { return .elsewhere(cause(of: link)) }
        return owner == renderer.seq ? .running : .late(cause(of: link))
    }

    /// Who made a change: the diff's `(by …)`.
    enum ChangeCause: Equatable {
        /// The command running now.
        case running
        /// Between commands: whoever it was.
        case between(String)
        /// An earlier command of this session.
        case late(String)
        /// While a command runs, work it did not begin.
        case elsewhere(String)
        /// Between commands, the app's work whose root is no longer kept (a flood's first sends): who, without what.
        case unnamed(String)

        /// What the diff says after `by`; nil for the running command's own.
        var name: String? {
            switch self {
            case .running: nil
            case .between(let name), .late(let name), .elsewhere(let name), .unnamed(let name): name
            }
        }

        var isElsewhere: Bool { if case .elsewhere = self { true } else { false } }
        var isUnnamed: Bool { if case .unnamed = self { true } else { false } }
    }
}

extension Renderer {
    /// The outcome of a send the shell gave up on (timed out, interrupted),
    /// now that it came: part of that command's output (its `seq`).
    func late(_ late: LateReplies.Reply) {
        printing(for: late.command.seq) {
            switch late.outcome {
            case .replied(let value?) where !(value is Void): emit(.lateReply(command: late.command, value: value))
            case .replied: emit(.message("\(late.command.described) finished late, with no reply"))
            case .threw(let error): emit(.problem("\(late.command.described) failed late: \(error)"))
            case .timedOut, .interrupted: break
            }
        }
    }
}
