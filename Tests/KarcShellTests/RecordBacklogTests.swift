import Foundation
import Testing

@testable import KarcSession

/// What a session holds of the cluster's records while it cannot print them.
@Suite("Record backlog", .timeLimit(.minutes(1)))
struct RecordBacklogTests {
    /// A record as text, to compare whole lists.
    func text(_ record: ShellRecord) -> String {
        switch record.kind {
        case .event(let source, let event): "event \(source) \(event)"
        case .stateChanged(let target, let old, let new): "state \(target) \(old) → \(new)"
        case .stateReported(let target, let state): "state \(target) → \(state)"
        case .redirected(let by, let action, let to): "redirected \(by) \(action) \(to)"
        case .failed(let error): "failed \(error)"
        case .lost(let count): "lost \(count)"
        case .sent(let action, _): "sent \(action)"
        case .replied(let reply): "replied \(reply)"
        case .handled: "handled"
        case .sendFailed(let error): "send failed \(error)"
        }
    }

    @Test func aTargetsChangesFoldIntoOneFromItsFirstOldStateToItsLastNewOne() {
        var backlog = RecordBacklog(limit: 10)
        backlog.append(contentsOf: [
            .stateChanged(target: "a", old: 0, new: 1),
            .event(source: "a", event: "one"),
            .stateChanged(target: "b", old: 5, new: 6),
            .stateChanged(target: "a", old: 1, new: 2),
        ])
        backlog.append(contentsOf: [.stateChanged(target: "a", old: 2, new: 3)])
        #expect(backlog.take().map(text) == ["event a one", "state a 0 → 3", "state b 5 → 6"])
    }

    @Test func pastItsLimitTheOldestEventsAreDroppedAndCounted() {
        var backlog = RecordBacklog(limit: 2)
        backlog.append(contentsOf: (1...5).map { .event(source: "s", event: $0) })
        #expect(backlog.take().map(text) == ["lost 3", "event s 4", "event s 5"])
    }

    @Test func whatTheClusterAlreadyLostAddsToTheCount() {
        var backlog = RecordBacklog(limit: 1)
        backlog.append(contentsOf: [.lost(count: 7), .event(source: "s", event: 1), .event(source: "s", event: 2)])
        #expect(backlog.take().map(text) == ["lost 8", "event s 2"])
    }

    @Test func takingEmptiesIt() {
        var backlog = RecordBacklog(limit: 3)
        #expect(backlog.isEmpty)
        backlog.append(contentsOf: [.stateChanged(target: "a", old: 0, new: 1), .lost(count: 1)])
        #expect(!backlog.isEmpty)
        #expect(backlog.take().count == 2)
        #expect(backlog.isEmpty)
        #expect(backlog.take().isEmpty)
        backlog.append(contentsOf: [.stateChanged(target: "a", old: 1, new: 2)])
        #expect(backlog.take().map(text) == ["state a 1 → 2"], "a target folded before starts afresh")
    }
}

/// Printed records are let go off the session's path: the state before a
/// change (a whole list after an append) is freed on the disposal's queue,
/// beside the next command; past its backlog, where it is.
@Suite("Record disposal", .timeLimit(.minutes(1)))
struct RecordDisposalTests {
    final class Tracker: Sendable {}

    /// A change whose old state is `tracker`, alone.
    func change(_ tracker: consuming Tracker) -> [ShellRecord] {
        [.stateChanged(target: "list", old: [tracker], new: [Int]())]
    }

    @Test func theOldStateIsFreedOnTheQueueNotByTheCaller() async {
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        let disposal = RecordDisposal(queue: queue)
        weak var old: Tracker?
        do {
            let tracker = Tracker()
            old = tracker
            disposal.drop(change(tracker), [FoldedChanges()])
        }
        #expect(old != nil, "freed by the caller")
        queue.resume()
        await withCheckedContinuation { done in queue.async { done.resume() } }
        #expect(old == nil, "not freed on the queue")
    }

    @Test func pastItsBacklogTheCallerFreesThem() {
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        defer { queue.resume() }
        let disposal = RecordDisposal(limit: 1, queue: queue)
        disposal.drop(change(Tracker()), [FoldedChanges()])
        weak var old: Tracker?
        do {
            let tracker = Tracker()
            old = tracker
            disposal.drop(change(tracker), [FoldedChanges()])
        }
        #expect(old == nil, "a second batch waited behind the first")
    }
}
