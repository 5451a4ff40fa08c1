// The seed README's "Advanced Usage" and dependency-injection examples, with
// the mechanical changes of docs/porting.md: `ActingDispatcher`,
// `DispatchingAction` (on a `Clock` instead of `DispatchTime`), `SimpleFlow`
// (the dispatcher is the global actor), and `CounterStoreAction`.
import AsyncDispatcher
import KarcSynchronization
import TestSupport
import Testing

// MARK: The seed's ActingDispatcher and DispatchingAction, on a store of their own.

actor ActingCounter: ActingDispatcher {
    static let shared = ActingCounter()
    let pipeline = Pipeline()
    var middlewares = [] as [Middleware]
    var count = 0
    var log: [String] = []

    /// Schedules through `dispatch`, noting each action: the dispatcher decides how actions run.
    func schedule<T: Action>(_ action: T) async throws where T.Dispatcher == ActingCounter {
        log.append("scheduled \(T.self)")
        try await dispatch(action)
    }
}

struct AddOne: DispatchingAction {
    let counter: ActingCounter
    var defaultDispatcher: ActingCounter { counter }
    func execute(with counter: isolated ActingCounter) async { counter.count += 1 }
}

// MARK: SimpleFlow: a shared dispatcher on a global actor.

final class FlowLog: Sendable {
    static let shared = FlowLog()
    let entries = KarcMutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
}

struct LoadProfile: SimpleFlowAction {
    let name: String
    func execute(with flow: isolated SimpleFlow) async {
        FlowLog.shared.append("load \(name)")
        await onFlow(name)  // the same actor: the shared dispatcher is the global actor
    }
}

@SimpleFlow func onFlow(_ name: String) { FlowLog.shared.append("on flow \(name)") }

// MARK: The dependency-injection pattern: actions that know their store.

struct Dependencies: Sendable {
    static let `default` = Dependencies()
    let counterStore = CounterStore()
}

protocol CounterStoreAction: Action where Dispatcher == CounterStore {}

extension CounterStoreAction {
    @MainActor func dispatch() async throws {
        try await Dependencies.default.counterStore.dispatch(self)
    }

    /// Fire and forget from anywhere (the seed's second `dispatch()`); the task is returned so a test can wait.
    @discardableResult
    func dispatch() -> Task<Void, any Error> {
        Task { @MainActor in try await Dependencies.default.counterStore.dispatch(self) }
    }
}

extension CounterStore {
    struct IncrementByOne: CounterStoreAction {
        func execute(with store: isolated CounterStore) async {
            store.count += 1
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct AdvancedUsageTests {
    @Test func aDispatchingActionDispatchesItselfThroughItsDispatchersSchedule() async throws {
        let counter = ActingCounter()
        try await AddOne(counter: counter).dispatch()
        try await AddOne(counter: counter).dispatch()
        #expect(await counter.count == 2)
        #expect(await counter.log == ["scheduled AddOne", "scheduled AddOne"])
    }

    @Test func scheduleRunsTheActionLaterAndThenItsCompletion() async throws {
        let counter = ActingCounter()
        let completed = KarcMutex(false)
        await AddOne(counter: counter).schedule { completed.withLock { $0 = true } }.value
        #expect(await counter.count == 1)
        #expect(completed.withLock { $0 })
    }

    @Test func scheduleAfterADelayWaitsOnTheClockItIsGiven() async throws {
        let counter = ActingCounter()
        // Under load the task may start only after both moves: its sleep, until exactly
        // `now` by then, must return at once, as HandClock's does (swift-clocks' TestClock's would not).
        let clock = HandClock()
        let completed = KarcMutex(0)
        let task = AddOne(counter: counter).schedule(after: .seconds(2), clock: clock) { completed.withLock { $0 += 1 } }
        clock.advance(by: .seconds(1))
        #expect(await counter.count == 0)
        clock.advance(by: .seconds(1))
        await task.value
        #expect(await counter.count == 1)
        #expect(completed.withLock { $0 } == 1)
    }

    @Test func aDelayIsCountedFromTheCallNotFromWhenItsTaskStarts() async throws {
        let counter = ActingCounter()
        let clock = HandClock()
        let task = AddOne(counter: counter).schedule(after: .seconds(2), clock: clock)
        // The whole delay passes before the task that waits has (likely) started:
        // a deadline taken inside the task would be two seconds too late, and never come.
        clock.advance(by: .seconds(2))
        await task.value
        #expect(await counter.count == 1)
    }

    @Test func aScheduledActionCancelledBeforeItsDelayNeverRuns() async throws {
        let counter = ActingCounter()
        let clock = HandClock()
        let completed = KarcMutex(false)
        let task = AddOne(counter: counter).schedule(after: .seconds(5), clock: clock) { completed.withLock { $0 = true } }
        task.cancel()
        await task.value
        clock.advance(by: .seconds(5))
        #expect(await counter.count == 0)
        #expect(!completed.withLock { $0 })
    }

    @Test func simpleFlowActionsRunOnTheSharedDispatcherAndItsGlobalActor() async throws {
        try await LoadProfile(name: "ada").dispatch()
        try await LoadProfile(name: "grace").dispatch()
        let entries = FlowLog.shared.entries.withLock { $0 }.filter { $0.hasSuffix("ada") || $0.hasSuffix("grace") }
        #expect(entries == ["load ada", "on flow ada", "load grace", "on flow grace"])
        #expect(SimpleFlow.sharedDispatcher === SimpleFlow.shared)
    }

    @Test func actionsThatKnowTheirStoreDispatchThemselves() async throws {
        let store = Dependencies.default.counterStore
        let before = await store.count
        try await CounterStore.IncrementByOne().dispatch().value
        try await CounterStore.IncrementByOne().dispatch() as Void
        #expect(await store.count == before + 2)
    }

    @Test func aCallbackDispatchRunsInCallOrderAndReportsErrors() async throws {
        let store = CounterStore()
        let results = KarcMutex<[String]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            store.dispatch(CounterStore.Increment(value: 1)) { _ in results.withLock { $0.append("one") } }
            store.dispatch(CounterStore.Fail()) { result in
                results.withLock { $0.append((try? result.get()) == nil ? "failed" : "succeeded") }
            }
            store.dispatch(CounterStore.Increment(value: 10)) { _ in
                results.withLock { $0.append("ten") }
                done.resume()
            }
        }
        #expect(results.withLock { $0 } == ["one", "failed", "ten"])
        #expect(await store.count == 11)
    }
}
