import Testing

@testable import Trellis

/// One observer alone is handed its records whole; from a second observer
/// on, the records are kept once, in chunks both read: across chunks, while
/// observers come and go, and when a batch is copied, each gets every
/// record in order, once.
@Suite(.timeLimit(.minutes(1))) struct SharedRecordLogTests {
    private func sent(_ n: Int) -> ClusterRecord { ClusterRecord(.sent(sequence: UInt64(n), action: "action \(n)", target: nil), link: nil) }

    private func sequences<Batch: Sequence<ClusterRecord>>(_ batch: Batch) -> [UInt64] {
        batch.compactMap { if case .sent(let sequence, _, _) = $0.kind { sequence } else { nil } }
    }

    /// The action each record carries (a string: a copy that shared storage with a moved-out record would show it).
    private func actions<Batch: Sequence<ClusterRecord>>(_ batch: Batch) -> [String] {
        batch.compactMap { if case .sent(_, let action, _) = $0.kind { action as? String } else { nil } }
    }

    private func publish(_ range: ClosedRange<Int>, to hub: ObservationHub) {
        for n in range { hub.publish(sent(n)) }
    }

    @Test func twoObserversEachReadEveryRecordAcrossManyChunks() {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let (fast, slow) = (hub.subscribe(capacity: 10_000), hub.subscribe(capacity: 10_000))
        let chunks = RecordLog.chunkSize
        publish(1...(3 * chunks + 5), to: hub)
        #expect(sequences(hub.takeBuffered(fast)) == Array(1...UInt64(3 * chunks + 5)))
        publish((3 * chunks + 6)...(5 * chunks), to: hub)
        #expect(sequences(hub.takeBuffered(fast)) == Array(UInt64(3 * chunks + 6)...UInt64(5 * chunks)))
        let slowBatch = hub.takeBuffered(slow)
        #expect(actions(slowBatch) == (1...(5 * chunks)).map { "action \($0)" })
        #expect(hub.heldRecords == 0)
    }

    @Test func aSecondObserverComingWhileTheFirstHasRecordsWaitingLosesTheFirstNothing() {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let first = hub.subscribe(capacity: 1000)
        publish(1...10, to: hub)
        let second = hub.subscribe(capacity: 1000)
        publish(11...15, to: hub)
        #expect(sequences(hub.takeBuffered(first)) == Array(1...15))
        #expect(sequences(hub.takeBuffered(second)) == Array(11...15))
    }

    @Test func whenTheSecondObserverLeavesTheFirstGoesOnInOrder() {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let (first, second) = (hub.subscribe(capacity: 1000), hub.subscribe(capacity: 1000))
        publish(1...70, to: hub)
        #expect(sequences(hub.takeBuffered(second)) == Array(1...70))
        hub.unsubscribe(second)
        publish(71...80, to: hub)
        #expect(sequences(hub.takeBuffered(first)) == Array(1...80))
        // Alone again: what comes next is handed over as it came.
        publish(81...83, to: hub)
        #expect(sequences(hub.takeBuffered(first)) == [81, 82, 83])
        #expect(hub.heldRecords == 0)
    }

    @Test func aCopiedBatchReadsTheSameRecordsAsItsOriginal() {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let (first, second) = (hub.subscribe(capacity: 1000), hub.subscribe(capacity: 1000))
        publish(1...100, to: hub)
        _ = hub.takeBuffered(second)
        var original = hub.takeBuffered(first)
        // Read partway (the batch holds its chunks alone now), then copied: neither takes records from the other.
        let head = (1...10).compactMap { _ in original.next() }
        let copy = original
        #expect(actions(copy) == (11...100).map { "action \($0)" })
        #expect(actions(original) == (11...100).map { "action \($0)" })
        #expect(actions(head) == (1...10).map { "action \($0)" })
    }

    @Test func aStalledObserverAmongOthersLosesItsOldestAndIsToldHowMany() {
        let hub = ObservationHub(wakeDelay: .seconds(3600))
        let (reading, stalled) = (hub.subscribe(capacity: 10_000), hub.subscribe(capacity: 100))
        for n in 1...300 {
            hub.publish(sent(n))
            if n.isMultiple(of: 50) { _ = hub.takeBuffered(reading) }
        }
        let batch = Array(hub.takeBuffered(stalled))
        guard case .lost(let count)? = batch.first?.kind else {
            Issue.record("no lost record first: \(batch.prefix(2))")
            return
        }
        #expect(count == 200)
        #expect(sequences(batch) == Array(201...300))
        // What the stalled one passed is let go of: the hub holds nothing once both took all.
        #expect(hub.heldRecords == 0)
    }

    @Test func anObservationIteratedWhileAnotherTakesSeesEveryRecordInOrder() async {
        let hub = ObservationHub(wakeDelay: .milliseconds(1))
        let observation = ClusterObservation(subscription: .init(hub: hub, id: hub.subscribe(capacity: 100_000)))
        let other = hub.subscribe(capacity: 100_000)
        let count = 20 * RecordLog.chunkSize + 7
        let reader = Task {
            var seen: [UInt64] = []
            for await record in observation {
                if case .sent(let sequence, _, _) = record.kind { seen.append(sequence) }
                if seen.count == count { break }
            }
            return seen
        }
        for n in 1...count {
            hub.publish(sent(n))
            if n.isMultiple(of: 97) { _ = hub.takeBuffered(other) }
        }
        #expect(await reader.value == Array(1...UInt64(count)))
    }
}
