import Testing
import Trellis

@Suite(.timeLimit(.minutes(1)))
struct StoreTests {
    @Test func aStoreMutatesItsActorModel() async throws {
        let model = CounterModel()
        let cluster = try await Bootstrap {
            Store(model: CounterModel.self)
                .mutate(on: CounterAction.self) { model, action, _ in
                    if case .add(let n) = action { model.add(n) }
                }
                .with(model: model)
        }
        try await cluster.send(action: CounterAction.add(2))
        try await cluster.send(action: CounterAction.add(3))
        #expect(await model.count == 5)
    }

    @Test func observersSeeEachChangeOfAStoresStateAsPlainOldAndNewValues() async throws {
        let cluster = try await Bootstrap {
            AddingService().with(model: CounterModel()).named("actor")
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, action, _ in
                    if case .add(let n) = action { tally.total += n }
                }
                .with(model: Tally())
                .named("value")
        }
        let observation = cluster.observe()
        try await cluster.send(action: CounterAction.add(0))
        try await cluster.send(action: CounterAction.add(2))
        var changes: Set<String> = []
        for await record in observation {
            if case .stateChanged(let source, let old, let new) = record.kind { changes.insert("\(source): \(old) → \(new)") }
            if changes.count == 2 { break }
        }
        // `add(0)` changes nothing, so only the second send is reported.
        #expect(changes == ["actor: 0 → 2", "value: Tally(total: 0) → Tally(total: 2)"])
    }

    @Test func anActorHandlerRunsOnItsModelSoItsStepsDoNotInterleave() async throws {
        let model = CounterModel()
        let cluster = try await Bootstrap {
            Store(model: CounterModel.self)
                .mutate(on: CounterAction.self) { model, _, _ in
                    // Read, then write: two steps another send could split if the handler hopped in between.
                    let seen = model.count
                    model.note("\(seen)")
                    model.add(1)
                }
                .with(model: model)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { try await cluster.send(action: CounterAction.add(1)) } }
            try await group.waitForAll()
        }
        #expect(await model.count == 200)
        #expect(Set(await model.log).count == 200)
    }

    @Test func aValueModelKeepsItsChanges() async throws {
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, action, _ in
                    if case .add(let n) = action { tally.total += n }
                }
                .with(model: Tally())
                .named("tally")
        }
        try await cluster.send(action: CounterAction.add(2))
        try await cluster.send(action: CounterAction.add(40))
        let state = await cluster.target(named: "tally")?.state?()
        #expect(state as? Tally == Tally(total: 42))
    }

    @Test func siblingStoresOfOneModelTypeKeepSeparateModels() async throws {
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, _, _ in tally.total += 1 }
                .with(model: Tally())
                .named("first")
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, _, _ in tally.total += 10 }
                .with(model: Tally(total: 100))
                .named("second")
        }
        try await cluster.send(action: CounterAction.add(0))
        #expect(await cluster.target(named: "first")?.state?() as? Tally == Tally(total: 1))
        #expect(await cluster.target(named: "second")?.state?() as? Tally == Tally(total: 110))
    }

    @Test func aStoreWithoutAModelFailsTheBootstrapAndSaysWhere() async throws {
        await #expect(throws: TrellisError.missingModel(store: "Store<CounterModel>", path: "root.0")) {
            _ = try await Bootstrap {
                Store(model: CounterModel.self).mutate(on: CounterAction.self) { _, _, _ in }
            }
        }
    }

    @Test func anActionNobodyTakesIsAnError() async throws {
        let cluster = try await Bootstrap {
            Store(model: Tally.self).mutate(on: CounterAction.self) { _, _, _ in }.with(model: Tally())
        }
        await #expect(throws: TrellisError.unhandledAction(type: "String")) {
            try await cluster.send(action: "hello")
        }
    }

    @Test func sendInTheEnvironmentCanBeReplacedToRecordFollowUps() async throws {
        let recorded = Recorder<String>()
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { _, _, send in try await send("follow-up") }
                .with(model: Tally())
                .environment(\.send, Send { recorded.append("\($0)") })
        }
        try await cluster.send(action: CounterAction.add(1))
        #expect(recorded.all == ["follow-up"])
    }

    @Test func aFollowUpSentThroughTheClusterIsHandled() async throws {
        let model = CounterModel()
        let cluster = try await Bootstrap {
            Store(model: CounterModel.self)
                .mutate(on: CounterAction.self) { model, action, send in
                    if case .add(let n) = action { model.add(n) }
                    if action == .add(1) { try await send(CounterAction.add(10)) }
                }
                .with(model: model)
        }
        try await cluster.send(action: CounterAction.add(1))
        #expect(await model.count == 11)
    }
}
