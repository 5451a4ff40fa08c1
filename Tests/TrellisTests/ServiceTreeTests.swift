import TestSupport
import Testing
import Trellis

/// A custom service wrapping a store, as the Trellis README recommends.
struct NotingService: Service {
    let tag: String
    var body: some Service {
        Store(model: CounterModel.self)
            .mutate(on: CounterAction.self) { model, action, _ in
                if action == .fail { throw Boom() }
                model.note(tag)
            }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ServiceTreeTests {
    @Test func serialServicesRunInDeclarationOrderAndStopAtTheFirstThrow() async throws {
        let model = CounterModel()
        let cluster = try await Bootstrap {
            Group {
                NotingService(tag: "a")
                NotingService(tag: "b")
                Store(model: CounterModel.self)
                    .mutate(on: CounterAction.self) { model, _, _ in model.note("c") }
            }
            .serial()
            .with(model: model)
        }
        try await cluster.send(action: CounterAction.add(0))
        #expect(await model.log == ["a", "b", "c"])

        let failing = try await Bootstrap {
            Group {
                NotingService(tag: "x")
                Store(model: CounterModel.self).mutate(on: CounterAction.self) { _, _, _ in throw Boom() }
                NotingService(tag: "never")
            }
            .serial()
            .with(model: model)
        }
        await #expect(throws: Boom()) { try await failing.send(action: CounterAction.add(0)) }
        #expect(await model.log == ["a", "b", "c", "x"])
    }

    @Test func concurrentServicesAllRunAndTheSendReturnsWhenAllFinished() async throws {
        let model = CounterModel()
        let withModel = try await Bootstrap {
            Group {
                for tag in ["a", "b", "c"] { NotingService(tag: tag) }
            }
            .with(model: model)
        }
        try await withModel.send(action: CounterAction.add(0))
        #expect(await model.log.sorted() == ["a", "b", "c"])
    }

    @Test func aGroupTakesMoreThanEightChildrenAndConditionals() async throws {
        let model = CounterModel()
        let flag = true
        let cluster = try await Bootstrap {
            Group {
                NotingService(tag: "1")
                NotingService(tag: "2")
                NotingService(tag: "3")
                NotingService(tag: "4")
                NotingService(tag: "5")
                NotingService(tag: "6")
                NotingService(tag: "7")
                NotingService(tag: "8")
                NotingService(tag: "9")
                if flag { NotingService(tag: "10") } else { NotingService(tag: "never") }
                if !flag { NotingService(tag: "never") }
            }
            .serial()
            .with(model: model)
        }
        try await cluster.send(action: CounterAction.add(0))
        #expect(await model.log == (1...10).map(String.init))
    }

    @Test func aTransformedErrorBecomesAnActionThatIsHandled() async throws {
        let model = CounterModel()
        let cluster = try await Bootstrap {
            Store(model: CounterModel.self)
                .mutate(on: CounterAction.self) { model, action, _ in
                    switch action {
                    case .fail: throw Boom()
                    case .recover: model.note("recovered")
                    case .add: break
                    }
                }
                .with(model: model)
                .transformError { _ in CounterAction.recover }
        }
        try await cluster.send(action: CounterAction.fail)
        #expect(await model.log == ["recovered"])
    }

    @Test func aTransformedErrorWhoseActionFailsAgainThrowsInsteadOfLooping() async throws {
        let attempts = Recorder<Int>()
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { _, _, _ in
                    attempts.append(1)
                    throw Boom()
                }
                .with(model: Tally())
                .transformError { _ in CounterAction.recover }
        }
        await #expect(throws: Boom()) { try await cluster.send(action: CounterAction.fail) }
        #expect(attempts.all.count == 2)
    }

    @Test func observersSeeTheActionsTheyAskFor() async throws {
        let byType = Recorder<CounterAction>()
        let byValue = Recorder<Int>()
        let all = Recorder<String>()
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { _, _, _ in }
                .mutate(on: String.self) { _, _, _ in }
                .with(model: Tally())
                .observe(on: CounterAction.self) { byType.append($0) }
                .observe(on: CounterAction.recover) { byValue.append(1) }
                .observe { all.append("\($0)") }
        }
        try await cluster.send(action: CounterAction.add(1))
        try await cluster.send(action: CounterAction.recover)
        try await cluster.send(action: "text")
        #expect(byType.all == [.add(1), .recover])
        #expect(byValue.all == [1])
        #expect(all.all == ["add(1)", "recover", "text"])
    }

    @Test func bootstrapHandlersRunBeforeBootstrapReturns() async throws {
        let model = CounterModel()
        let cluster = try await Bootstrap {
            AddingService()
                .with(model: model)
                .bootstrap { await model.note("booted") }
        }
        #expect(await model.log == ["booted"])
        _ = cluster
    }

    @Test func anEmitterConsumedAtBootstrapFeedsItsServicesBeforeBootstrapReturns() async throws {
        let model = CounterModel()
        let actions = AsyncStream<CounterAction> { continuation in
            for n in 1...3 { continuation.yield(.add(n)) }
            continuation.finish()
        }
        _ = try await Bootstrap {
            AddingService()
                .with(model: model)
                .emit(using: actions, consumeAtBootstrap: true)
        }
        #expect(await model.count == 6)
    }

    @Test func aBackgroundEmitterFeedsTheClusterAndADroppedClusterStopsIt() async throws {
        let model = CounterModel()
        let (actions, continuation) = AsyncStream<CounterAction>.makeStream()
        var cluster: Cluster? = try await Bootstrap {
            AddingService()
                .with(model: model)
                .emit(using: actions)
        }
        continuation.yield(.add(5))
        // Polls: the emitter feeds an actor model, whose state has no change hook.
        #expect(await eventually { await model.count == 5 })
        let gone = WeakCluster(cluster)
        cluster = nil
        // The emitter holds the cluster weakly: dropping it frees it (an action in flight would keep it).
        // Polls: a weak reference's release has no hook.
        #expect(await eventually { gone.cluster == nil })
        // The emitter keeps yielding into a cluster that is gone: an action can only be handled
        // by a cluster, so nothing is, and nothing crashes.
        for n in 1...100 { continuation.yield(.add(n)) }
        continuation.finish()
        #expect(await model.count == 5)
    }
}

/// A cluster held weakly, readable from any task.
private final class WeakCluster: Sendable {
    weak let cluster: Cluster?
    init(_ cluster: Cluster?) { self.cluster = cluster }
}
