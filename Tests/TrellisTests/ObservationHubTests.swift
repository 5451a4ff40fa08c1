import TestSupport
import Testing
@testable import Trellis

/// A waiting observer is woken with a batch: at once when `wakeBatch` records
/// are buffered, else after the wake delay; nothing published is ever held back.
@Suite(.timeLimit(.minutes(1))) struct ObservationHubTests {
    private func sent(_ n: Int) -> ClusterRecord { .sent(sequence: UInt64(n), action: n) }

    private func sequences<Batch: Sequence<ClusterRecord>>(_ batch: Batch?) -> [UInt64] {
        guard let batch else { return [] }
        return batch.compactMap { if case .sent(let sequence, _) = $0 { sequence } else { nil } }
    }

    @Test func aLoneRecordReachesAWaitingObserverAfterTheWakeDelay() async {
        let hub = ObservationHub(wakeDelay: .milliseconds(1))
        let id = hub.subscribe(capacity: 100)
        let batch = Task { await hub.nextBatch(id) }
        #expect(await eventually { hub.isWaiting(id) })
        hub.publish(sent(1))
        #expect(sequences(await batch.value) == [1])
    }

    @Test func aFullBatchWakesAWaitingObserverAtOnce() async {
        // A delay no test outlives: only the batch size can wake the observer.
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let id = hub.subscribe(capacity: 1000)
        let batch = Task { await hub.nextBatch(id) }
        #expect(await eventually { hub.isWaiting(id) })
        for n in 1..<ObservationHub.wakeBatch { hub.publish(sent(n)) }
        #expect(hub.isWaiting(id), "woken before the batch was full")
        hub.publish(sent(ObservationHub.wakeBatch))
        #expect(sequences(await batch.value) == Array(1...UInt64(ObservationHub.wakeBatch)))
    }

    @Test func closingHandsAWaitingObserverWhatIsBufferedThenEndsIt() async {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let id = hub.subscribe(capacity: 100)
        let first = Task { await hub.nextBatch(id) }
        #expect(await eventually { hub.isWaiting(id) })
        hub.publish(sent(1))
        hub.publish(sent(2))
        hub.close()
        #expect(sequences(await first.value) == [1, 2])
        #expect(await hub.nextBatch(id) == nil)
    }

    @Test func anObserverThatIsNotWaitingTakesWhatIsBufferedAtOnce() async {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let id = hub.subscribe(capacity: 100)
        hub.publish(sent(1))
        hub.publish(sent(2))
        #expect(sequences(await hub.nextBatch(id)) == [1, 2])
        #expect(sequences(hub.takeBuffered(id)) == [])
    }
}
