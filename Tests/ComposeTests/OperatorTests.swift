import Compose
import TestSupport
import Testing

@Suite("Emitter operators, one by one", .timeLimit(.minutes(1)))
struct OperatorTests {
    @Test func debounceEmitsTheLastValueOnceTheIntervalPassesQuietly() async {
        let clock = HandClock()
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        emitter.debounce(interval: .seconds(1), clock: clock) += { seen.record($0) }

        for value in 0..<100 { emitter.send(value) }
        // The last value's timer (each value cancelled the one before).
        await clock.untilSleeping(count: 1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleepers == 1, "1 ms short of its deadline, the timer sleeps on")
        #expect(seen.values.isEmpty)

        clock.advance(by: .milliseconds(1))
        #expect(await seen.until { $0.count == 1 })
        #expect(seen.values == [99])

        emitter.send(100)
        clock.advance(by: .milliseconds(500))
        emitter.send(101)  // restarts the interval
        await clock.untilSleeping(count: 1)
        clock.advance(by: .milliseconds(500))
        clock.advance(by: .milliseconds(499))
        #expect(clock.sleepers == 1, "past 100's deadline, 101's timer sleeps on")
        #expect(seen.values == [99])
        clock.advance(by: .milliseconds(1))
        #expect(await seen.until { $0.count == 2 })
        #expect(seen.values == [99, 101])
    }

    @Test func debounceOfASignalFiresOnceForABurst() async {
        let clock = HandClock()
        let emitter = SignalEmitter()
        let seen = Recorder<Void>()
        emitter.debounce(interval: .seconds(1), clock: clock) += { seen.record(()) }
        for _ in 0..<100 { emitter.send() }
        clock.advance(by: .seconds(1))
        #expect(await seen.until { $0.count == 1 })
        clock.advance(by: .seconds(5))
        #expect(seen.count == 1)
    }

    @Test func cancellingADebounceDropsThePendingValue() async {
        let clock = HandClock()
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        let token = emitter.debounce(interval: .seconds(1), clock: clock).observe { seen.record($0) }
        emitter.send(1)
        token.cancel()
        #expect(clock.sleepers == 0, "no timer sleeps on once the observation is cancelled")
        clock.advance(by: .seconds(2))
        #expect(seen.values.isEmpty)
    }

    @Test func dropFirstSkipsTheFirstValuesOfEachObservation() {
        let emitter = ValueEmitter<Int>()
        let one = Recorder<Int>()
        let three = Recorder<Int>()
        let all = Recorder<Int>()
        emitter.dropFirst() += { one.record($0) }
        emitter.dropFirst(count: 3) += { three.record($0) }
        emitter.dropFirst(count: -1) += { all.record($0) }
        for value in 1...5 { emitter.send(value) }
        #expect(one.values == [2, 3, 4, 5])
        #expect(three.values == [4, 5])
        #expect(all.values == [1, 2, 3, 4, 5])

        let late = Recorder<Int>()
        emitter.dropFirst() += { late.record($0) }  // counts from its own start
        emitter.send(6)
        emitter.send(7)
        #expect(late.values == [7])
    }

    @Test func dropUntilWaitsForTheControlEmitter() {
        let emitter = ValueEmitter<Int>()
        let control = SignalEmitter()
        let seen = Recorder<Int>()
        emitter.dropUntil(emitter: control) += { seen.record($0) }
        emitter.send(100)
        emitter.send(200)
        control.send()
        emitter.send(300)
        control.send()
        emitter.send(400)
        #expect(seen.values == [300, 400])
    }

    enum Choice: Equatable { case one, two, three }

    @Test func filterOnlyAndNotSelectValues() {
        let emitter = ValueEmitter<Choice>()
        let filtered = Recorder<Choice>()
        let twos = Recorder<Void>()
        let notThree = Recorder<Choice>()
        emitter.filter { $0 == .one } += { filtered.record($0) }
        emitter.only(.two) += { twos.record(()) }
        emitter.not(.three) += { notThree.record($0) }

        for choice in [Choice.one, .two, .three, .two] { emitter.send(choice) }

        #expect(filtered.values == [.one])
        #expect(twos.count == 2)
        #expect(notThree.values == [.one, .two, .two])
    }

    @Test func flatMapObservesTheEmitterMadeFromEachValue() {
        let first = SignalEmitter()
        let second = ValueEmitter<String>()
        let seen = Recorder<String>()
        first.flatMap { second } += { seen.record($0) }

        second.send("before")
        first.send()
        second.send("after")

        #expect(seen.values == ["after"])
    }

    @Test func flatMapFollowsEmittersCreatedLater() {
        final class Outer: Sendable {
            let didCreate = SignalEmitter()
            let inner = ValueEmitter<ValueEmitter<String>?>()
            func create() {
                inner.send(ValueEmitter<String>())
                didCreate.send()
            }
        }
        let outer = Outer()
        let seen = Recorder<String>()
        outer.didCreate.flatMap { outer.inner.lastValue.flatMap { $0 } ?? ValueEmitter<String>() } += { seen.record($0) }

        outer.create()
        outer.inner.lastValue??.send("super-data-payload")
        outer.create()
        outer.inner.lastValue??.send("second")

        #expect(seen.values == ["super-data-payload", "second"])
    }

    @Test func cancellingAFlatMapStopsTheInnerObservationsToo() {
        let outer = SignalEmitter()
        let inner = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        let token = outer.flatMap { inner }.observe { seen.record($0) }
        outer.send()
        inner.send(1)
        token.cancel()
        inner.send(2)
        #expect(seen.values == [1])
    }

    @Test func ignoreOutputTurnsValuesIntoSignals() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Void>()
        emitter.ignoreOutput() += { seen.record(()) }
        emitter.send(100)
        emitter.send(200)
        #expect(seen.count == 2)
    }

    @Test func mapTransformsEachValue() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        emitter.map { $0 + 10 } += { seen.record($0) }
        for value in [5, 10, 35] { emitter.send(value) }
        #expect(seen.values == [15, 20, 45])
    }

    enum ValueError: Error { case customError }

    @Test func mapErrorToNilTurnsFailuresIntoNil() {
        let emitter = ValueEmitter<Result<Int, ValueError>>()
        let seen = Recorder<Int?>()
        emitter.mapErrorToNil += { seen.record($0) }
        emitter.send(.success(100))
        emitter.send(.failure(.customError))
        emitter.send(.success(200))
        #expect(seen.values == [100, nil, 200])
    }

    @Test func mergeAndPlusEmitTheValuesOfBoth() {
        let first = SignalEmitter()
        let second = SignalEmitter()
        let signals = Recorder<Void>()
        (first + second) += { signals.record(()) }
        first.send()
        second.send()
        #expect(signals.count == 2)

        let numbers = ValueEmitter<Int>()
        let more = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        numbers.merge(more) += { seen.record($0) }
        numbers.send(1)
        more.send(2)
        numbers.send(3)
        #expect(seen.values == [1, 2, 3])
    }

    @Test func mergedEmittersNeverDeliverTwoValuesAtOnce() async {
        let first = ValueEmitter<Int>()
        let second = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        let overlaps = Recorder<Bool>()
        let detector = OverlapDetector()
        (first + second) += { value in
            if !detector.enter() { overlaps.record(true) }
            seen.record(value)
            detector.leave()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for value in 0..<2_000 { first.send(value) } }
            group.addTask { for value in 0..<2_000 { second.send(value) } }
        }
        #expect(await seen.until { $0.count == 4_000 })
        #expect(overlaps.count == 0)
    }

    @Test func nonNullDropsNils() {
        let emitter = ValueEmitter<Int?>()
        let seen = Recorder<Int>()
        emitter.nonNull() += { seen.record($0) }
        for value in [5, nil, nil, 100] { emitter.send(value) }
        #expect(seen.values == [5, 100])
    }

    @Test func onceEmitsOnlyTheFirstValueEvenFromManyTasks() async {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        emitter.once() += { seen.record($0) }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask { for index in 0..<200 { emitter.send(sender * 1_000 + index) } }
            }
        }
        // Polls: an emitter's last value has no change hook beside its observers, which this test checks.
        #expect(await eventually { emitter.lastValue != nil })
        #expect(seen.count == 1)
    }

    @Test func onceWithCurrentFiresWithTheCurrentValueOnly() {
        let emitter = ValueEmitter<Int>(7)
        let seen = Recorder<Int>()
        emitter.withCurrent().once() += { seen.record($0) }
        emitter.send(8)
        #expect(seen.values == [7])
    }

    struct Profile: Sendable {
        let firstName: String
        let lastName: String
    }

    @Test func tapEmitsAPropertyOfEachValue() {
        let emitter = ValueEmitter<Profile>()
        let first = Recorder<String>()
        let last = Recorder<String>()
        emitter.tap(\.firstName) += { first.record($0) }
        emitter.tap(\.lastName) += { last.record($0) }
        emitter.send(.init(firstName: "Jill", lastName: "Valentine"))
        #expect(first.values == ["Jill"])
        #expect(last.values == ["Valentine"])
    }

    @Test func undupDropsRepeatedValues() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        emitter.undup() += { seen.record($0) }
        for value in [5, 5, 5, 10, 5] { emitter.send(value) }
        #expect(seen.values == [5, 10, 5])
    }

    @Test func withCurrentStartsWithTheValueCurrentWhenObservingStarts() {
        let emitter = ValueEmitter<Int>()
        emitter.send(100)
        let current = emitter.withCurrent()  // made now, observed later
        emitter.send(150)

        let withCurrent = Recorder<Int>()
        let plain = Recorder<Int>()
        current += { withCurrent.record($0) }
        emitter += { plain.record($0) }
        emitter.send(5)

        #expect(withCurrent.values == [150, 5])
        #expect(plain.values == [5])
    }

    @Test func withCurrentOnAnEmptyEmitterWaitsForTheFirstValue() {
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<Int>()
        emitter.withCurrent() += { seen.record($0) }
        #expect(seen.values.isEmpty)
        emitter.send(1)
        #expect(seen.values == [1])
    }

    @Test func operatorsChain() {
        let emitter = ValueEmitter<Profile>()
        let seen = Recorder<String>()
        emitter.tap(\.firstName).undup().dropFirst().map { $0.uppercased() } += { seen.record($0) }
        for name in ["Jill", "Jill", "Chris", "Chris", "Leon"] {
            emitter.send(.init(firstName: name, lastName: "-"))
        }
        #expect(seen.values == ["CHRIS", "LEON"])
    }

    @Test func anEmitterCanBeReadAsAnAsyncSequence() async {
        let emitter = ValueEmitter<Int>()
        let values = emitter.values
        for value in 1...3 { emitter.send(value) }
        var received: [Int] = []
        for await value in values {
            received.append(value)
            if received.count == 3 { break }
        }
        #expect(received == [1, 2, 3])
    }

    @Test func endingTheAsyncSequenceStopsTheObservation() async {
        let emitter = ValueEmitter<Int>()
        do {
            let values = emitter.values
            emitter.send(1)
            for await _ in values { break }
        }
        // Nothing observes any more: sending must not grow an abandoned buffer.
        let seen = Recorder<Int>()
        emitter += { seen.record($0) }
        emitter.send(2)
        #expect(seen.values == [2])
    }

    @Test func anAsyncSequenceBecomesAnEmitterOfResults() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.yield(2)
            continuation.finish(throwing: ValueError.customError)
        }
        let seen = Recorder<String>()
        let token = stream.emitter().observe { result in
            switch result {
            case .success(let value): seen.record("value \(value)")
            case .failure(let error): seen.record("error \(error)")
            }
        }
        #expect(await seen.until { $0.count == 3 })
        #expect(seen.values == ["value 1", "value 2", "error customError"])
        token.cancel()
    }

    @Test func cancellingTheEmitterOfAnAsyncSequenceStopsItsIteration() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let seen = Recorder<Int>()
        let token = stream.emitter().mapErrorToNil.nonNull().observe { seen.record($0) }
        continuation.yield(1)
        #expect(await seen.until { $0.count == 1 })
        token.cancel()
        // Polls: the stream ends once the cancelled token's task runs on the shared pool; a yield is the only way to ask.
        #expect(
            await eventually {
                if case .terminated = continuation.yield(2) { return true }
                return false
            })
        #expect(seen.values == [1])
    }
}
