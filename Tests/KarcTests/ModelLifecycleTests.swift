import Testing
import TrellisTesting

@testable import Karc

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct ModelLifecycleTests {
    @Test func setUpRegistersTheDomainWithTheInitialState() async throws {
        let id = "model"
        try await CounterModel.setUp(.init(environ: Environ(), id: id, state: Counter(count: 41)))
        let domain = try await CounterDomain.get(id: id)
        #expect(await domain.state == Counter(count: 41))
        #expect(try await domain.send(Increment()) as? Int == 42)
        await CounterModel.tearDown(id: id)
    }

    @Test func settingUpTheSameIdTwiceIsRefused() async throws {
        let id = "model"
        try await CounterModel.setUp(.init(environ: Environ(), id: id))
        let error = await #expect(throws: ModelError.self) {
            try await CounterModel.setUp(.init(environ: Environ(), id: id))
        }
        #expect(error == .alreadySetUp(model: "CounterModel", id: id))
        #expect(error?.description == "CounterModel (id \(id)) is set up already; tear it down first or use another id")
        await CounterModel.tearDown(id: id)
    }

    @Test func aDomainThatIsNotSetUpRefusesAtOnce() async throws {
        let id = "model"
        await #expect(throws: ModelError.notSetUp(domain: "CounterDomain", id: id)) {
            try await CounterDomain.get(id: id)
        }
        #expect(await CounterDomain.getOrNil(id: id) == nil)
        let detached = await CounterDomain.getOrDefault(id: id)
        let error = await #expect(throws: ModelError.self) { try await detached.send(Increment()) }
        #expect(error?.description == "CounterDomain (id \(id)) is not set up; call its model's setUp(_:) first")
        await #expect(throws: ModelError.self) { try await detached.receive() }
        await #expect(throws: ModelError.self) { for try await _ in detached.receiver() {} }
    }

    @Test func afterTearDownSendsFailAtOnceAndReceiversEnd() async throws {
        let domain = try await CounterModel.make()
        let events = domain.receiver()
        _ = try await domain.send(Increment())
        await CounterModel.tearDown(id: domain.id)
        let error = await #expect(throws: ModelError.self) { try await domain.send(Increment()) }
        #expect(error == .tornDown(model: "CounterModel(\(domain.id))"))
        await #expect(throws: ModelError.self) { try await CounterDomain.get(id: domain.id) }
        var seen: [Int] = []
        for try await event in events { seen.append((event as? Incremented)?.count ?? -1) }
        #expect(seen == [1])
        // Tearing down again, or an id never set up, does nothing.
        await CounterModel.tearDown(id: domain.id)
        await CounterModel.tearDown(id: "never-set-up")
    }

    @Test func hooksRunInOrderAndTheDomainObservesEveryNewState() async throws {
        let probe = Probe()
        let domain = try await CounterModel.make(probe)
        _ = try await domain.send(Increment(by: 2))
        _ = try await domain.send(Increment(by: 3))
        await CounterModel.tearDown(id: domain.id)
        #expect(probe.log == ["set up", "will 0", "did 2", "will 2", "did 5", "torn down"])
        #expect(domain.observedCounts == [2, 5])
    }

    /// `make tsan` is what this is for: observed properties read from several
    /// tasks while `observe(state:)` writes them are not a data race (`Observed`).
    @Test func observedValuesAreReadFromSeveralTasksWhileCommandsRun() async throws {
        let domain = try await CounterModel.make()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    for _ in 0..<200 {
                        let counts = domain.observedCounts
                        #expect(counts.count >= last, "observed values only grow")
                        last = counts.count
                        await Task.yield()
                    }
                }
            }
            group.addTask {
                for _ in 0..<100 { _ = try await domain.send(Increment(by: 1)) }
            }
            try await group.waitForAll()
        }
        #expect(domain.observedCounts == Array(1...100))
        await CounterModel.tearDown(id: domain.id)
    }

    @Test func tearDownWithSendsInFlightFailsThemAndReturns() async throws {
        let id = "model"
        let latch = Latch()
        let probe = Probe()
        try await BlockingModel.setUp(.init(environ: Environ.probing(probe).setConfig(key: "latch", value: latch), id: id))
        let domain = try await BlockingDomain.get(id: id)
        let inFlight = (0..<3).map { _ in Task { try await domain.send(Block()) } }
        #expect(await probe.wait { $0.filter { $0 == "blocked" }.count == 3 })
        // The tracks never finish on their own; tear-down cancels them and fails their senders.
        await BlockingModel.tearDown(id: id)
        for send in inFlight {
            await #expect(throws: (any Error).self) { try await send.value }
        }
    }
}

struct Blocked: Equatable, Initable, Sendable {}
struct Block: Sendable {}
@CheckedSendable
final class BlockingDomain: Domain<String, Blocked, Block, Never> {}

/// Three duplex pipes whose tracks wait for cancellation.
@CheckedSendable
final class BlockingModel: Model<BlockingDomain, String, Blocked, Block, Never, Never> {
    @ScopesBuilder
    override func scopes(_ s: Blocked, _ i: Interactor) -> [Scope] {
        Pipeline {
            for n in 1...3 {
                Pipe(id: "block-\(n)", mode: .duplex(), source: i.commandSource) { (_: Block, _) in
                    let latch: Latch? = i.environ.getConfig(key: "latch")
                    i.environ.probe.record("blocked")
                    await latch?.wait()
                    try Task.checkCancellation()
                }
            }
        }
    }
}
