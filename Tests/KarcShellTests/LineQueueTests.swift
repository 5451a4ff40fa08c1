import Foundation
import KarcAsync
import KarcSynchronization
import TestSupport
import Testing

@testable import KarcSession

/// A script is handed from its reading thread to the session a few MiB at a
/// time, counted as what its lines hold in memory, not as their bytes alone.
@Suite("Line queue", .timeLimit(.minutes(1)))
struct LineQueueTests {
    @Test func aProducerWaitsOnceTheLinesWaitingHoldTheCapacityAndGoesOnWhenHalfIsTaken() async {
        // Room for ten lines of `abc`: by their bytes alone, over two hundred.
        let queue = LineQueue(capacity: 10 * LineQueue.cost(of: "abc"))
        let appended = KarcMutex(0)
        Thread {
            for _ in 0..<5 {
                queue.appendWaiting(Array(repeating: "abc", count: 4))
                appended.withLock { $0 += 4 }
            }
            queue.finish()
        }.start()
        // Four, eight, twelve lines waiting: the fourth batch waits until half the room is free.
        // Polls: the producer is a thread blocked in the queue; a thread has no async hook.
        #expect(await eventually(within: .seconds(10)) { queue.producerIsWaiting })
        #expect(appended.withLock { $0 } == 12)
        var taken: [String] = []
        for _ in 0..<6 {
            if let line = await queue.next() { taken.append(line) }
        }
        #expect(queue.producerIsWaiting, "six lines still wait: more than half the room")
        while let line = await queue.next() { taken.append(line) }
        #expect(taken.count == 20)
        #expect(appended.withLock { $0 } == 20)
    }
}
