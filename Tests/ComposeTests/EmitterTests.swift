import Compose
import KarcSynchronization
import Synchronization
import TestSupport
import Testing

@testable import Compose

@Suite("Emitters: observing, order, cancelling", .timeLimit(.minutes(1)))
struct EmitterTests {
    @Test func aSignalEmitterCallsEveryObserverOnEachSend() {
        let hello = SignalEmitter()
        let first = Recorder<String>()
        let second = Recorder<String>()
        hello += { first.record("hello") }
        hello += { second.record("hello") }

        hello.send()
        hello.send()

        #expect(first.values == ["hello", "hello"])
        #expect(second.values == ["hello", "hello"])
    }

    @Test func aValueEmitterDeliversValuesInSendOrder() {
        let messages = ValueEmitter<String>()
        let seen = Recorder<String>()
        messages += { seen.record($0) }

        messages.send("a")
        messages.send("b")
        messages.send("c")

        #expect(seen.values == ["a", "b", "c"])
        #expect(messages.lastValue == "c")
    }

    @Test func anObserverOnlySeesValuesSentAfterItStarted() {
        let emitter = ValueEmitter<Int>()
        emitter.send(1)
        let seen = Recorder<Int>()
        emitter += { seen.record($0) }
        emitter.send(2)
        #expect(seen.values == [2])
    }

    @Test func bangPlusEqualsObservesOnlyTheFirstValue() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        let signals = Recorder<Void>()
        let signal = SignalEmitter()
        emitter !+= { seen.record($0) }
        signal !+= { signals.record(()) }

        for value in [5, 100, 30] { emitter.send(value) }
        signal.send()
        signal.send()

        #expect(seen.values == [5])
        #expect(signals.count == 1)
    }

    @Test func tildePlusEqualsObservesNewAndOldValues() {
        let emitter = ValueEmitter<Int>()
        let pairs = Recorder<[Int]>()
        emitter ~+= { new, old in pairs.record([new, old]) }

        emitter.send(1)
        emitter.send(2)
        emitter.send(5)

        #expect(pairs.values == [[2, 1], [5, 2]])
    }

    @Test func tildePlusEqualsStartsFromTheInitialValue() {
        let emitter = ValueEmitter<Int>(10)
        let pairs = Recorder<[Int]>()
        emitter ~+= { new, old in pairs.record([new, old]) }
        emitter.send(11)
        #expect(pairs.values == [[11, 10]])
    }

    @Test func aTokenStopsItsObservationWhenCancelled() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        let token = emitter.observe { seen.record($0) }
        emitter.send(1)
        token.cancel()
        emitter.send(2)

        #expect(seen.values == [1])
        #expect(token.isCancelled)
    }

    @Test func aTokenStopsItsObservationWhenReleased() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        var token: ObservationToken? = emitter.observe { seen.record($0) }
        emitter.send(1)
        #expect(token != nil)
        token = nil
        emitter.send(2)
        #expect(seen.values == [1])
    }

    @Test func tokensCanBeKeptInASet() {
        let emitter = SignalEmitter()
        let seen = Recorder<Void>()
        var tokens = Set<ObservationToken>()
        emitter.observe { seen.record(()) }.store(in: &tokens)
        emitter.map { 1 }.observe { _ in seen.record(()) }.store(in: &tokens)
        emitter.send()
        tokens.removeAll()
        emitter.send()
        #expect(seen.count == 2)
    }

    @Test func cancellingAChainStopsItAtTheRoot() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        let token = emitter.map { $0 * 2 }.filter { $0 > 2 }.observe { seen.record($0) }
        emitter.send(1)
        emitter.send(2)
        token.cancel()
        emitter.send(3)
        #expect(seen.values == [4])
    }

    @Test func aSendFromInsideAnObserverIsDeliveredAfterTheCurrentValue() {
        let emitter = ValueEmitter<Int>()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        emitter += { value in
            first.record(value)
            if value == 1 { emitter.send(2) }
        }
        emitter += { second.record($0) }

        emitter.send(1)

        // Both observers get 1 before either gets 2: no recursion, no reordering.
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func valuesSentFromManyTasksReachEveryObserverOnceAndOneAtATime() async {
        let emitter = ValueEmitter<Int>()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let inside = Recorder<Bool>()
        let busy = OverlapDetector()
        emitter += { value in
            if !busy.enter() { inside.record(true) }
            first.record(value)
            busy.leave()
        }
        emitter += { second.record($0) }

        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask {
                    for index in 0..<500 { emitter.send(sender * 1_000 + index) }
                }
            }
        }

        #expect(await second.until { $0.count == 4_000 })
        #expect(first.values == second.values, "every observer sees the same order")
        #expect(inside.count == 0, "no observer ran twice at once")
        for sender in 0..<8 {
            let own = first.values.filter { $0 / 1_000 == sender }
            #expect(own == (0..<500).map { sender * 1_000 + $0 }, "a sender's values keep their order")
        }
    }
}

/// Detects calls that overlap.
final class OverlapDetector: Sendable {
    private let isInside = Locked(false)

    /// False when another call is already inside.
    func enter() -> Bool {
        isInside.withLock { inside in
            defer { inside = true }
            return !inside
        }
    }

    func leave() {
        isInside.withLock { $0 = false }
    }
}
