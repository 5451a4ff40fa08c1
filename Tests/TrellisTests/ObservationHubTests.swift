import TestSupport
import Testing

@testable import Trellis

/// A waiting observer is woken with a batch: at once when `wakeBatch` records
/// are buffered, else after the wake delay; nothing published is ever held back.
@Suite(.timeLimit(.minutes(1))) struct ObservationHubTests {
    private func sent(_ n: Int) -> ClusterRecord { ClusterRecord(.sent(sequence: UInt64(n), action: n, target: nil), link: nil) }

    private func sequences<Batch: Sequence<ClusterRecord>>(_ batch: Batch?) -> [UInt64] {
        guard let batch else { return [] }
        return batch.compactMap { if case .sent(let sequence, _, _) = $0.kind { sequence } else { nil } }
    }

    /// A hub with one observer waiting in `nextBatch`, and the batch it will get.
    private func waitingObserver(wakeDelay: Duration) async -> (ObservationHub, UInt64, Task<[ClusterRecord]?, Never>) {
        let hub = ObservationHub(wakeDelay: wakeDelay)
        let id = hub.subscribe(capacity: 1000)
        let batch = Task { await hub.nextBatch(id).map(Array.init) }
        await hub.untilWaiting(id)
        return (hub, id, batch)
    }

    @Test func aLoneRecordReachesAWaitingObserverAfterTheWakeDelay() async {
        let (hub, _, batch) = await waitingObserver(wakeDelay: .milliseconds(1))
        hub.publish(sent(1))
        #expect(sequences(await batch.value) == [1])
    }

    @Test func aFullBatchWakesAWaitingObserverAtOnce() async {
        // A delay no test outlives: only the batch size can wake the observer.
        let (hub, id, batch) = await waitingObserver(wakeDelay: .seconds(3600))
        for n in 1..<ObservationHub.wakeBatch { hub.publish(sent(n)) }
        #expect(hub.isWaiting(id), "woken before the batch was full")
        hub.publish(sent(ObservationHub.wakeBatch))
        #expect(sequences(await batch.value) == Array(1...UInt64(ObservationHub.wakeBatch)))
    }

    @Test func closingHandsAWaitingObserverWhatIsBufferedThenEndsIt() async {
        let (hub, id, first) = await waitingObserver(wakeDelay: .seconds(3600))
        hub.publish(sent(1))
        hub.publish(sent(2))
        hub.close()
        #expect(sequences(await first.value) == [1, 2])
        #expect(await hub.nextBatch(id) == nil)
    }

    @Test func aFewBufferedRecordsComeAfterTheWakeDelayAFullBatchAtOnce() async {
        // A few records wait for more (taking them one by one would race the publishers).
        let quick = ObservationHub(wakeDelay: .milliseconds(1))
        let few = quick.subscribe(capacity: 1000)
        quick.publish(sent(1))
        quick.publish(sent(2))
        #expect(sequences(await quick.nextBatch(few)) == [1, 2])
        // A full batch is taken at once, however long the delay.
        let slow = ObservationHub(wakeDelay: .seconds(3600))
        let full = slow.subscribe(capacity: 1000)
        for n in 1...ObservationHub.wakeBatch { slow.publish(sent(n)) }
        #expect(sequences(await slow.nextBatch(full)) == Array(1...UInt64(ObservationHub.wakeBatch)))
    }

    @Test func aSmallBufferMakesASmallerBatchSoNothingIsLostWhileTheObserverWaits() async {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let id = hub.subscribe(capacity: 10)
        let batch = Task { await hub.nextBatch(id).map(Array.init) }
        await hub.untilWaiting(id)
        // Half the buffer is a batch: the observer is woken before the buffer can overflow.
        for n in 1...5 { hub.publish(sent(n)) }
        #expect(sequences(await batch.value) == [1, 2, 3, 4, 5])
    }

    @Test func anObserverThatAsksForLargerBatchesIsWokenByThemAndNoSooner() async {
        // A shell between commands: woken by 2,048 records, not 256, while its buffer holds 100,000.
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let id = hub.subscribe(capacity: 100_000, batch: 2_048)
        let batch = Task { await hub.nextBatch(id).map(Array.init) }
        await hub.untilWaiting(id)
        for n in 1..<2_048 { hub.publish(sent(n)) }
        #expect(hub.isWaiting(id), "woken before its batch was full")
        hub.publish(sent(2_048))
        #expect(sequences(await batch.value) == Array(1...2_048))
        // Never more than half its buffer: a small buffer still wakes it before it can overflow.
        let small = ObservationHub(wakeDelay: .seconds(3600))
        let bounded = small.subscribe(capacity: 10, batch: 2_048)
        let early = Task { await small.nextBatch(bounded).map(Array.init) }
        await small.untilWaiting(bounded)
        for n in 1...5 { small.publish(sent(n)) }
        #expect(sequences(await early.value) == [1, 2, 3, 4, 5])
    }

    /// Returns once a wait is kept in the hub, so what follows wakes it rather than finds it satisfied.
    private func untilWatched(_ hub: ObservationHub) async {
        // Polls: the wait registering is what is awaited; a hook for it would be a wait on a wait.
        while hub.state.withLock({ $0.watchers.isEmpty }) { await Task.yield() }
    }

    @Test func aTestWaitingForNothingHeldWakesWhenTheSlowestObserverTakesOrLeaves() async {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let (fast, slow) = (hub.subscribe(capacity: 1000), hub.subscribe(capacity: 1000))
        for n in 1...3 { hub.publish(sent(n)) }
        _ = hub.takeBuffered(fast)
        #expect(hub.heldRecords == 3, "the slow observer has taken none")
        let leaving = Task { await hub.untilNothingHeld() }
        await untilWatched(hub)
        hub.unsubscribe(slow)
        await leaving.value
        #expect(hub.heldRecords == 0)
        hub.publish(sent(4))
        let taking = Task { await hub.untilNothingHeld() }
        await untilWatched(hub)
        _ = hub.takeBuffered(fast)
        await taking.value
        #expect(hub.heldRecords == 0)
    }

    @Test func takingWhatIsBufferedNeverWaits() {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let id = hub.subscribe(capacity: 100)
        hub.publish(sent(1))
        hub.publish(sent(2))
        #expect(sequences(hub.takeBuffered(id)) == [1, 2])
        #expect(sequences(hub.takeBuffered(id)) == [])
    }

    @Test func observersShareOneLogEachAtItsOwnPaceAndASlowOneLosesOnlyItsOwn() {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let fast = hub.subscribe(capacity: 1000)
        let slow = hub.subscribe(capacity: 3)
        for n in 1...5 { hub.publish(sent(n)) }
        #expect(sequences(hub.takeBuffered(fast)) == [1, 2, 3, 4, 5])
        for n in 6...7 { hub.publish(sent(n)) }
        // The slow one kept its last three, and hears how many it lost.
        let slowBatch = Array(hub.takeBuffered(slow))
        guard case .lost(let count)? = slowBatch.first?.kind else {
            Issue.record("no lost record: \(slowBatch)")
            return
        }
        #expect(count == 4)
        #expect(sequences(slowBatch) == [5, 6, 7])
        #expect(sequences(hub.takeBuffered(fast)) == [6, 7])
        // One that subscribes later sees only what comes after.
        let late = hub.subscribe(capacity: 10)
        hub.publish(sent(8))
        #expect(sequences(hub.takeBuffered(late)) == [8])
        #expect(sequences(hub.takeBuffered(fast)) == [8])
        hub.unsubscribe(slow)
        hub.publish(sent(9))
        #expect(sequences(hub.takeBuffered(fast)) == [9])
        #expect(hub.takeBuffered(slow).isEmpty)
    }
}
