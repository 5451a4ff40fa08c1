import Compose
import ServiceContextModule
import TestSupport
import Testing

/// A value an emitter lets through later (a debounce, a timer) arrives in
/// the `ServiceContext` it was sent in (its trace, an app's baggage); one
/// fed from outside (an async sequence) arrives in none of its subscriber's.
@Suite(.timeLimit(.minutes(1)))
struct EmitterContextTests {
    enum Request: ServiceContextKey { typealias Value = String }

    static func context(_ request: String) -> ServiceContext {
        var context = ServiceContext.topLevel
        context[Request.self] = request
        return context
    }

    @Test func aDebouncedValueArrivesInTheContextItWasSentIn() async {
        let clock = HandClock()
        let emitter = ValueEmitter<Int>()
        let seen = Recorder<String>()
        emitter.debounce(interval: .seconds(1), clock: clock) += { value in
            seen.record("\(value) in \(ServiceContext.current?[Request.self] ?? "none")")
        }
        ServiceContext.$current.withValue(Self.context("first")) { emitter.send(1) }
        ServiceContext.$current.withValue(Self.context("second")) { emitter.send(2) }
        clock.advance(by: .seconds(1))
        #expect(await seen.until { $0.count == 1 })
        #expect(seen.values == ["2 in second"])
    }

    @Test func aSequencesElementsArriveInNoContextOfTheSubscribers() async {
        let (values, feed) = AsyncStream<Int>.makeStream()
        let seen = Recorder<String>()
        let subscription = ServiceContext.$current.withValue(Self.context("subscriber")) {
            values.emitter().subscribe { _ in seen.record(ServiceContext.current?[Request.self] ?? "none") }
        }
        feed.yield(1)
        #expect(await seen.until { $0.count == 1 })
        #expect(seen.values == ["none"])
        subscription.cancel()
        feed.finish()
    }
}
