import Testing
import Trellis

/// A store of an actor that shows its state reads that state on the actor,
/// around its handler, and tells observers what changed: as for any store,
/// also when the handler throws, never when nothing changed, and with the
/// old state only while an observer keeps old states.
@Suite(.timeLimit(.minutes(1)))
struct ActorStateReportTests {
    static func cluster(_ model: CounterModel) async throws -> Cluster {
        try await Bootstrap {
            Store(model: CounterModel.self)
                .mutate(on: CounterAction.self) { model, action, _ in
                    switch action {
                    case .add(let n): model.add(n)
                    case .fail:
                        // A change made before the failure is still a change.
                        model.add(10)
                        throw Boom()
                    case .recover: break
                    }
                }
                .with(model: model)
                .named("counter")
        }
    }

    /// Each state report: the source, and its old and new states (`-` for one not kept).
    static func reports(_ records: [ClusterRecord]) -> [String] {
        records.compactMap { record in
            guard case .stateChanged(let source, let old, let new) = record.kind else { return nil }
            return "\(source): \(old is StateNotKept ? "-" : "\(old)") → \(new)"
        }
    }

    @Test func aChangeIsReportedWithItsOldAndNewStateAndNoChangeIsNot() async throws {
        let cluster = try await Self.cluster(CounterModel())
        let observation = cluster.observe(bufferSize: 100)
        try await cluster.send(action: CounterAction.add(2))
        try await cluster.send(action: CounterAction.add(0))
        try await cluster.send(action: CounterAction.recover)
        try await cluster.send(action: CounterAction.add(3))
        #expect(Self.reports(observation.takeAvailable()) == ["counter: 0 → 2", "counter: 2 → 5"])
        await cluster.shutDown()
    }

    @Test func aHandlerThatThrowsAfterChangingItsModelFailsTheSendAndTheChangeIsReported() async throws {
        let model = CounterModel()
        let cluster = try await Self.cluster(model)
        let observation = cluster.observe(bufferSize: 100)
        await #expect(throws: Boom()) { try await cluster.send(action: CounterAction.fail) }
        #expect(await model.count == 10)
        #expect(Self.reports(observation.takeAvailable()) == ["counter: 0 → 10"])
        await cluster.shutDown()
    }

    @Test func anObserverThatKeepsNoOldStatesGetsTheFirstChangeWithItAndTheNextOnesWithout() async throws {
        let cluster = try await Self.cluster(CounterModel())
        let shell = cluster.observe(bufferSize: 100, keepingOldStates: false)
        try await cluster.send(action: CounterAction.add(1))
        try await cluster.send(action: CounterAction.add(1))
        await #expect(throws: Boom.self) { try await cluster.send(action: CounterAction.fail) }
        #expect(Self.reports(shell.takeAvailable()) == ["counter: 0 → 1", "counter: - → 2", "counter: - → 12"])
        await cluster.shutDown()
    }

    @Test func withoutAnObserverNothingIsReportedAndTheModelStillChanges() async throws {
        let model = CounterModel()
        let cluster = try await Self.cluster(model)
        try await cluster.send(action: CounterAction.add(4))
        let observation = cluster.observe(bufferSize: 100)
        try await cluster.send(action: CounterAction.add(1))
        #expect(await model.count == 5)
        #expect(Self.reports(observation.takeAvailable()) == ["counter: 4 → 5"])
        await cluster.shutDown()
    }
}
