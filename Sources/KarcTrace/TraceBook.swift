import DequeModule
import KarcAsync
import KarcShellCluster

/// What the session keeps of the cluster's traces: each trace's hops (a
/// send began or ended, an event, a change, a redirect) in the order they
/// came, and which command of the session started which trace.
///
/// Bounded, whatever the cluster does: a trace keeps at most `hopsPerTrace`
/// hops (a runaway flow, a handler that sends forever, is counted past
/// that), and the book at most `hopBudget` hops in all, dropping the oldest
/// traces first. A pure value: the session feeds it records and asks.
///
/// Of a trace whose links are its root's (`TraceLink.isRootOnly`: the
/// app's own work, which nobody draws a tree of) it keeps only what the
/// root sent, to name it (`the app: counter.increment`), for the last
/// `rootsKept` such roots: a shell watching an app under load pays a
/// slot and an index entry a send, not a trace.
package struct TraceBook {
    /// One hop: what a span did, and when.
    package struct Hop {
        package enum Kind {
            case sent(action: any Sendable, target: String?)
            case replied(any Sendable)
            case handled
            case failed(any Error)
            case event(source: String, value: any Sendable)
            /// The state of `target` changed (its states are the renderer's, not kept here).
            case state(target: String)
            case redirected(by: String, to: [any Sendable])
        }

        package let kind: Kind
        package let span: UInt64
        package let parent: UInt64?
        /// Plain words, not an optional instant (resilient: copied through value witnesses, a hop a record).
        package let time: TraceTime
        /// False for a report of state the session has not yet found changed
        /// (a store reports every run of a handler): trees and diagrams skip it.
        package var confirmed = true
    }

    /// One trace as far as the session saw it. A class: a hop is appended
    /// where the trace lies, without copying its hops out of the book.
    package final class Recording {
        package let trace: UInt64
        /// What started it when no send did (`timer account.tick`).
        package var origin: String?
        /// The session's command that started it, and its name (`articles.load`).
        package var command: Int?
        package var commandName: String?
        package var hops: [Hop] = []
        /// Hops that came past ``TraceBook/hopsPerTrace``, not kept.
        package var omitted = 0
        /// Hops from this index on came after the command that started the trace had ended.
        package var lateFrom: Int?

        package init(trace: UInt64, origin: String?) {
            self.trace = trace
            self.origin = origin
        }
    }

    /// Of each trace whose late work was printed, how many of its hops were (the session prints the rest as it comes).
    package var lateShown: [UInt64: Int] = [:]

    package let hopsPerTrace: Int
    package let hopBudget: Int
    private var recordings: [UInt64: Recording] = [:]
    /// Trace ids, oldest first.
    private var order: Deque<UInt64> = []
    private var hopCount = 0
    /// Each command's trace, by its number (`:history`).
    private var commands: [Int: UInt64] = [:]
    /// Reports of state added since the session last said which targets changed.
    private var unconfirmed: [(recording: Recording, index: Int, target: String)] = []
    /// The trace a hop was added to last: the next is most often the same one.
    private var last: Recording?
    /// What each of the last roots of root-only traces sent: a ring, written
    /// in place a send.
    private var roots: [(trace: UInt64, action: any Sendable, target: String?)] = []
    private var nextRoot = 0
    /// The slot of each kept trace's first send in the ring: a change is
    /// named by one lookup (a shell names each change of a flood, one a
    /// send), not by a search of the ring, which misses in full for a root
    /// already overwritten.
    private var rootSlots: [UInt64: Int] = [:]
    package let rootsKept: Int

    package init(hopsPerTrace: Int = 1_000, hopBudget: Int = 50_000, rootsKept: Int = 1_000) {
        self.hopsPerTrace = max(1, hopsPerTrace)
        self.hopBudget = max(self.hopsPerTrace, hopBudget)
        self.rootsKept = max(1, rootsKept)
    }

    /// The command `seq` starts the trace `trace` (its send's span).
    package mutating func begin(command seq: Int, trace: UInt64, name: String) {
        commands[seq] = trace
        let recording = recordings[trace] ?? open(trace, origin: nil)
        recording.command = seq
        recording.commandName = name
    }

    /// The command `seq` ended: what its trace does from now on is late.
    package mutating func end(command seq: Int) {
        guard let trace = commands[seq], let recording = recordings[trace] else { return }
        recording.lateFrom = recording.hops.count
    }

    /// Adds what `record` tells a trace; a record outside any trace, or one that is no hop, adds nothing.
    package mutating func add(_ record: ShellRecord) {
        guard let link = record.link else { return }
        guard !link.isRootOnly else {
            // The first send of a root-only trace is its root's (the work under it carries the root's link).
            if case .sent(let action, let target) = record.kind, lastRoot != link.trace { rememberRoot(link.trace, action, target) }
            return
        }
        guard let kind = Self.hop(record.kind) else { return }
        var hop = Hop(kind: kind, span: link.span, parent: link.parent, time: record.traceTime)
        guard case .state(let target) = kind else {
            add(hop, to: link)
            return
        }
        // Kept where it happened, shown once the session found that it changed something (`confirm`).
        hop.confirmed = false
        if let (recording, index) = add(hop, to: link) { unconfirmed.append((recording, index, target)) }
    }

    /// Of the reports of state added since the last call, those of `targets`
    /// changed something: they are hops of their traces; the others are not.
    package mutating func confirm(_ targets: Set<String>) {
        for (recording, index, target) in unconfirmed where targets.contains(target) && index < recording.hops.count {
            recording.hops[index].confirmed = true
        }
        unconfirmed.removeAll(keepingCapacity: true)
    }

    /// Adds `hop` to its trace; the trace and the hop's index there, nil when the trace was full.
    @discardableResult
    private mutating func add(_ hop: Hop, to link: TraceLink) -> (Recording, Int)? {
        let recording: Recording
        if let last, last.trace == link.trace {
            recording = last
        } else if let known = recordings[link.trace] {
            recording = known
        } else {
            recording = open(link.trace, origin: link.origin)
        }
        last = recording
        guard recording.hops.count < hopsPerTrace else {
            recording.omitted += 1
            return nil
        }
        recording.hops.append(hop)
        hopCount += 1
        if hopCount > hopBudget { trim() }
        return (recording, recording.hops.count - 1)
    }

    package mutating func add(_ records: [ShellRecord]) {
        for record in records { add(record) }
    }

    /// The trace the command `seq` started, if it is still kept.
    package func recording(ofCommand seq: Int) -> Recording? {
        commands[seq].flatMap { recordings[$0] }
    }

    package func recording(_ trace: UInt64) -> Recording? { recordings[trace] }

    /// What the root of the root-only trace `trace` sent, if it is among the last kept.
    package func root(of trace: UInt64) -> (action: any Sendable, target: String?)? {
        guard let slot = rootSlots[trace] else { return nil }
        let entry = roots[slot]
        return (entry.action, entry.target)
    }

    /// The trace of the root-only send remembered last.
    private var lastRoot: UInt64? { roots.isEmpty ? nil : roots[(nextRoot - 1 + roots.count) % roots.count].trace }

    private mutating func rememberRoot(_ trace: UInt64, _ action: any Sendable, _ target: String?) {
        let slot = nextRoot
        if roots.count < rootsKept {
            roots.append((trace, action, target))
            nextRoot = roots.count % rootsKept
        } else {
            let overwritten = roots[slot].trace
            if rootSlots[overwritten] == slot { rootSlots[overwritten] = nil }
            roots[slot] = (trace, action, target)
            nextRoot = (nextRoot + 1) % rootsKept
        }
        // A root's own send is the first send of its trace: a later one (its handler's, after another root's) is not indexed.
        if rootSlots[trace] == nil { rootSlots[trace] = slot }
    }

    /// The commands whose traces are kept, oldest first.
    package var tracedCommands: [Int] { commands.filter { recordings[$0.value] != nil }.keys.sorted() }

    /// The newest command whose trace was dropped to keep within ``hopBudget``, if any was.
    package private(set) var droppedCommand: Int?

    private mutating func open(_ trace: UInt64, origin: String?) -> Recording {
        let recording = Recording(trace: trace, origin: origin)
        recordings[trace] = recording
        order.append(trace)
        return recording
    }

    /// Drops the oldest traces while the book holds more hops than its budget.
    private mutating func trim() {
        while hopCount > hopBudget, let oldest = order.popFirst() {
            guard let dropped = recordings.removeValue(forKey: oldest) else { continue }
            hopCount -= dropped.hops.count
            if let seq = dropped.command {
                commands[seq] = nil
                droppedCommand = max(droppedCommand ?? 0, seq)
            }
            if last === dropped { last = nil }
        }
    }

    private static func hop(_ kind: ShellRecord.Kind) -> Hop.Kind? {
        switch kind {
        case .sent(let action, let target): .sent(action: action, target: target)
        case .replied(let reply): .replied(reply)
        case .handled: .handled
        case .sendFailed(let error): .failed(error)
        case .event(let source, let event): .event(source: source, value: event)
        case .stateChanged(let target, _, _), .stateReported(let target, _): .state(target: target)
        case .redirected(let by, _, let to): .redirected(by: by, to: to)
        case .failed(let error): .failed(error)
        case .lost: nil
        }
    }
}
