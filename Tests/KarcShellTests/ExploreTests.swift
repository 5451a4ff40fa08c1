import Foundation
import KarcAsync
import KarcCommand
import KarcLanguage
import KarcShellTrellis
import KarcSynchronization
import Testing
import Trellis

@testable import KarcExplore
@testable import KarcOutput
@testable import KarcSession

/// `explore` on clusters of the user's own, in this process: what it
/// generates, how it finds a failure, how it shrinks one, and its clock.
@Suite(.timeLimit(.minutes(2)))
struct ExploreTests {
    enum Priority: Int, Codable, Sendable {
        case low = 1
        case high = 3
    }
    enum Mode: String, Codable, Sendable {
        case open
        case shipped = "SHIPPED"
    }
    struct Address: Codable, Sendable, Equatable {
        var city: String
        var zip: String?
    }

    /// One field of every type the shell reads.
    struct Everything: Action, Codable {
        var id: UUID
        var at: Date
        var site: URL
        var total: Decimal
        var weight: Float
        var ratio: Double
        var count: Int
        var done: Bool
        var title: String
        var priority: Priority
        var mode: Mode?
        var tags: [String]
        var scores: [Int]
        var labels: [String: Int]?
        var address: Address
        var note: String?
    }

    struct Noted: Equatable, Sendable { var seen = 0 }

    static func everything() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Noted.self)
                .mutate(on: Everything.self) { noted, _, _ in noted.seen += 1 }
                .with(model: Noted())
                .named("all")
        }
        return ClusterShell(name: "all", cluster: cluster)
    }

    @Test func everyGeneratedCommandIsOneTheShellReads() async throws {
        let shell = try await Self.everything()
        let generator = try CommandGenerator(catalog: shell.catalog)
        let builder = CommandBuilder(catalog: shell.catalog)
        var random = SeededRandom(seed: 11)
        var pool = ValuePool()
        pool.merge(Harvest(strings: ["from a reply"], ints: [77], uuids: [UUID().uuidString]), from: 0)
        for _ in 0..<2_000 {
            let line = generator.next(&random, pool: pool).line
            guard case .command(let invocation) = try LineParser.parse(line) else {
                Issue.record("not a command: \(line)")
                return
            }
            do {
                _ = try builder.build(invocation)
            } catch {
                Issue.record("\(line): \(error.message)")
                return
            }
        }
        await shell.shutDown()
    }

    @Test func theSameSeedWritesTheSameCommandsAndAnotherSeedOthers() async throws {
        let shell = try await Self.everything()
        let generator = try CommandGenerator(catalog: shell.catalog)
        func lines(_ seed: UInt64, run: Int) -> [String] {
            var random = SeededRandom.run(run, of: seed)
            return (0..<50).map { _ in generator.next(&random, pool: ValuePool()).line }
        }
        #expect(lines(42, run: 3) == lines(42, run: 3))
        #expect(lines(42, run: 3) != lines(42, run: 4))
        #expect(lines(42, run: 3) != lines(43, run: 3))
        await shell.shutDown()
    }

    @Test func aTargetOrCommandThatDoesNotExistIsAnErrorThatNamesWhatDoes() async throws {
        let shell = try await Self.everything()
        #expect(throws: ExploreError("--targets: no target 'nope'; targets: all")) {
            try CommandGenerator(catalog: shell.catalog, targets: ["nope"])
        }
        #expect(throws: ExploreError("--skip: no command or target 'all.nothing' (write target.command)")) {
            try CommandGenerator(catalog: shell.catalog, skip: ["all.nothing"])
        }
        #expect(throws: ExploreError("nothing to explore: no target has a command whose fields karc could learn")) {
            try CommandGenerator(catalog: shell.catalog, skip: ["all"])
        }
        await shell.shutDown()
    }

    // MARK: Finding failures

    /// A list whose `remove` takes the id of an item `add` made: only an id
    /// read from the state reaches the planted bug (a random UUID never matches).
    struct Item: Equatable, Sendable { var id: UUID }
    struct Items: Equatable, Sendable {
        var items: [Item] = []
        var removed = 0
    }
    enum ItemAction: Action, Codable {
        case add
        case remove(id: UUID)
    }

    static func items() async throws -> any ShellCluster {
        let cluster = try await Bootstrap {
            Store(model: Items.self)
                .mutate(on: ItemAction.self) { items, action, _ in
                    switch action {
                    case .add: items.items.append(Item(id: UUID()))
                    case .remove(let id):
                        guard let index = items.items.firstIndex(where: { $0.id == id }) else { return }
                        items.items.remove(at: index)
                        items.removed += 1
                    }
                }
                .with(model: Items())
                .invariant("nothing is ever removed") { (items: Items) in items.removed == 0 }
                .named("items")
        }
        return ClusterShell(name: "items", cluster: cluster)
    }

    static func explore(
        _ make: @escaping @Sendable () async throws -> any ShellCluster, seed: UInt64 = 1, runs: Int = 50, steps: Int = 30,
        timeout: Duration = .seconds(5)
    ) async throws -> (Explorer.Report, output: String) {
        var step = ExploreStepRunner.Settings()
        step.timeout = timeout
        let backend = InProcessExplore(settings: step) { _ in try await make() }
        let catalogCluster = try await make()
        let generator = try CommandGenerator(catalog: catalogCluster.catalog)
        await catalogCluster.shutDown()
        var settings = Explorer.Settings()
        settings.seed = seed
        settings.runs = runs
        settings.steps = steps
        let sink = OutputSink(capturing: ())
        let report = try await Explorer(generator: generator, backend: backend, settings: settings, sink: sink).run()
        return (report, String(decoding: sink.takeCaptured(), as: UTF8.self))
    }

    @Test func anIdAnAddMadeReachesTheRemoveThatBreaksTheInvariant() async throws {
        let (report, output) = try await Self.explore(Self.items)
        let found = try #require(report.found.first)
        #expect(found.failure.kind == .invariant("'nothing is ever removed' of items"))
        #expect(found.commands.map(\.command) == ["add", "remove"])
        #expect(output.contains("failure: invariant 'nothing is ever removed' of items does not hold after items.remove"))
    }

    @Test func aSequenceThatHangsIsShrunkToTheCommandsThatReachTheHang() async throws {
        let (report, _) = try await Self.explore(Self.deep, timeout: .milliseconds(200))
        let found = try #require(report.found.first)
        #expect(found.failure.kind == .timeout(command: "deep.dive"))
        #expect(found.commands.map(\.line) == ["deep.step", "deep.step", "deep.step", "deep.dive"])
    }

    enum DeepAction: Action, Codable {
        case step, surface, dive
    }
    struct Depth: Equatable, Sendable { var level = 0 }

    static func deep() async throws -> any ShellCluster {
        ClusterShell(name: "deep", cluster: try await deepCluster())
    }

    static func deepCluster() async throws -> Cluster {
        try await Bootstrap {
            Store(model: Depth.self)
                .mutate(on: DeepAction.self) { depth, action, _ in
                    switch action {
                    case .step: depth.level += 1
                    case .surface: depth.level = 0
                    case .dive: if depth.level >= 3 { try await Task.sleep(for: .seconds(3_600)) }
                    }
                }
                .with(model: Depth())
                .named("deep")
        }
    }

    @Test func aShrunkHangIsWrittenAsATestThatSendsTheSameCommands() async throws {
        let cluster = try await Self.deep()
        let found = Explorer.Found(
            failure: ExploreFailure(.timeout(command: "deep.dive"), "deep.dive did not answer within 200ms"), run: 3, original: 40,
            commands: ["deep.step", "deep.step", "deep.step", "deep.dive"].map {
                ExploreCommand(target: "deep", command: String($0.dropFirst(5)), fields: [])
            },
            replays: 12, shrinkTime: .milliseconds(30))
        var settings = Explorer.Settings()
        settings.seed = 9
        settings.advance = .milliseconds(250)
        let explorer = Explorer(
            generator: try CommandGenerator(catalog: cluster.catalog), backend: InProcessExplore(settings: .init()) { _ in cluster },
            settings: settings, sink: OutputSink(capturing: ()))
        let source = try explorer.testSource(
            found, options: TestExportOptions(factory: "try await makeDeep()", imports: ["Deep"]), catalog: cluster.catalog)
        #expect(
            source == """
                // Generated by `explore`: deep.dive did not answer within 200ms.
                // Seed 9, run 4: 40 commands, shrunk to 4. The test fails as the cluster did.
                // Regenerate it with explore rather than edit it.

                @testable import Deep
                import KarcShellTests
                import Testing
                import TrellisTesting

                @Test(.timeLimit(.minutes(1))) func timeoutDeepDive() async throws {
                    let store = try await ClusterTestStore { clock in
                        try await makeDeep()
                    }
                    store.isExhaustive = false
                    // deep.step
                    try await store.send(ExploreTests.DeepAction.step, to: "deep", advancingBy: .milliseconds(250))
                    // deep.step
                    try await store.send(ExploreTests.DeepAction.step, to: "deep", advancingBy: .milliseconds(250))
                    // deep.step
                    try await store.send(ExploreTests.DeepAction.step, to: "deep", advancingBy: .milliseconds(250))
                    // The last command does not settle: the store's timeout fails the test.
                    // deep.dive
                    try await store.send(ExploreTests.DeepAction.dive, to: "deep", advancingBy: .milliseconds(250))
                }

                """)
        await cluster.shutDown()
    }

    @Test func anInvariantGivenBesideTheClusterHoldsForEveryTargetOfItsStateType() async throws {
        let (report, _) = try await Self.explore({
            ClusterShell(
                name: "deep", cluster: try await Self.deepCluster(), invariants: [Invariant("shallow") { (depth: Depth) in depth.level < 2 }])
        })
        let found = try #require(report.found.first)
        #expect(found.failure.kind == .invariant("'shallow' of deep"))
        #expect(found.commands.map(\.line) == ["deep.step", "deep.step"])
    }

    @Test func aTimeLimitStopsStartingRunsAndTheReportSaysWhy() async throws {
        var step = ExploreStepRunner.Settings()
        step.timeout = .seconds(5)
        let backend = InProcessExplore(settings: step) { _ in try await Self.everything() }
        let catalogCluster = try await Self.everything()
        var settings = Explorer.Settings()
        settings.timeLimit = .zero
        let sink = OutputSink(capturing: ())
        let told = KarcMutex<[String]>([])
        let explorer = Explorer(
            generator: try CommandGenerator(catalog: catalogCluster.catalog), backend: backend, settings: settings, sink: sink,
            progress: { line in told.withLock { $0.append(line) } })
        await catalogCluster.shutDown()
        let report = try await explorer.run()
        #expect(report.runs == 0)
        #expect(report.stoppedEarly == "the time limit (0s) was reached after 0 runs")
        #expect(String(decoding: sink.takeCaptured(), as: UTF8.self).contains("stopped: the time limit (0s) was reached after 0 runs\n"))
        // The progress line is cleared at the end.
        #expect(told.withLock { $0.last } == "")
    }

    /// Two bugs of two kinds: an invariant `crack` breaks, an error `boom` throws.
    enum TwoBugsAction: Action, Codable { case crack, mend, boom, idle }
    struct Wall: Equatable, Sendable { var cracked = false }
    struct Boom: Error {}

    static func twoBugs() async throws -> any ShellCluster {
        let cluster = try await Bootstrap {
            Store(model: Wall.self)
                .mutate(on: TwoBugsAction.self) { wall, action, _ in
                    switch action {
                    case .crack: wall.cracked = true
                    case .mend: wall.cracked = false
                    case .boom: throw Boom()
                    case .idle: break
                    }
                }
                .with(model: Wall())
                .invariant("whole") { (wall: Wall) in !wall.cracked }
                .named("wall")
        }
        return ClusterShell(name: "wall", cluster: cluster)
    }

    @Test func keepGoingFindsAFailureOfEachKindEachShrunkOnce() async throws {
        var step = ExploreStepRunner.Settings()
        step.failOn = ["Boom"]
        let backend = InProcessExplore(settings: step) { _ in try await Self.twoBugs() }
        let catalogCluster = try await Self.twoBugs()
        var settings = Explorer.Settings()
        settings.seed = 5
        settings.runs = 30
        settings.keepGoing = true
        let explorer = Explorer(
            generator: try CommandGenerator(catalog: catalogCluster.catalog), backend: backend, settings: settings, sink: OutputSink(capturing: ()))
        await catalogCluster.shutDown()
        let report = try await explorer.run()
        #expect(Set(report.found.map(\.failure.kind)) == [.invariant("'whole' of wall"), .error(type: "Boom")])
        #expect(report.found.map(\.commands.count).sorted() == [1, 1])
        #expect(report.runs == 30, "it went on to the end")
    }

    @Test func aClusterWithoutBugsExploresToTheEndAndSaysSo() async throws {
        let (report, output) = try await Self.explore(Self.everything, runs: 5, steps: 20)
        #expect(report.found.isEmpty)
        #expect(report.runs == 5)
        #expect(report.commands == 100)
        #expect(output.contains("explored 5 runs, 100 commands"))
        #expect(output.contains(": no failures"))
    }

    /// Breaks its invariant the first time it is ever tripped, in any cluster: no replay fails again.
    enum OnceAction: Action, Codable { case trip }
    struct Once: Equatable, Sendable { var broken = false }
    static let tripped = KarcMutex(false)

    static func once() async throws -> any ShellCluster {
        let cluster = try await Bootstrap {
            Store(model: Once.self)
                .mutate(on: OnceAction.self) { once, _, _ in
                    once.broken = ExploreTests.tripped.withLock { tripped in
                        defer { tripped = true }
                        return !tripped
                    }
                }
                .with(model: Once())
                .invariant("never broken") { (once: Once) in !once.broken }
                .named("once")
        }
        return ClusterShell(name: "once", cluster: cluster)
    }

    @Test func aFailureTheSameCommandsDoNotRepeatIsReportedAsNotDeterministicAndNotShrunk() async throws {
        let (report, output) = try await Self.explore(Self.once, runs: 3, steps: 5)
        let found = try #require(report.found.first)
        #expect(!found.reproduced)
        #expect(found.commands.count == found.original)
        #expect(output.contains("did not fail again on a fresh cluster, so nothing was shrunk: the cluster is not deterministic"))
    }

    // MARK: Shrinking

    /// Fails when `b` comes after `a` with `x` of at least 10; every replay counted.
    @Test func shrinkingDropsWhatIsNotNeededAndMakesValuesSimpler() async throws {
        let replays = KarcMutex(0)
        let shrinker = Shrinker { commands in
            replays.withLock { $0 += 1 }
            var sawA = false
            for (index, command) in commands.enumerated() {
                if command.command == "a" { sawA = true }
                if sawA, command.command == "b", case .int(let x)? = command.fields.first?.value, x >= 10 {
                    return Shrinker.Replayed(failure: ExploreFailure(.invariant("x"), "x too big"), at: index, sent: commands)
                }
            }
            return nil
        }
        let noise = (0..<60).map { ExploreCommand(target: "t", command: "noise", fields: [("n", .string("some text \($0)"))], optional: ["n"]) }
        var commands = noise
        commands.insert(ExploreCommand(target: "t", command: "a", fields: []), at: 17)
        commands.append(ExploreCommand(target: "t", command: "b", fields: [("x", .int(40)), ("note", .string("ünï"))], optional: ["note"]))
        let result = await shrinker.shrink(commands, failing: ExploreFailure(.invariant("x"), "x too big"))
        #expect(result.commands.map(\.line) == ["t.a", "t.b x=10"])
        #expect(result.replays == replays.withLock { $0 })
    }

    @Test func aValueIsMadeSimplerTowardsZeroTheEmptyStringAndFewerElements() {
        #expect(ExploreValue.int(Int.min).simpler == [.int(0), .int(Int.min / 2)])
        #expect(ExploreValue.int(-7).simpler == [.int(0), .int(7), .int(-3), .int(-6)])
        #expect(ExploreValue.int(0).simpler.isEmpty)
        #expect(ExploreValue.string("héllo").simpler == [.string(""), .string("hé"), .string("héll"), .string("hllo")])
        #expect(ExploreValue.list([.int(2)]).simpler == [.list([]), .list([.int(0)]), .list([.int(1)])])
        #expect(ExploreValue.string("a\"b\n").text == #""a\"b\n""#)
    }

    // MARK: The clock

    @Test func theClockWakesASleeperOnlyWhenTimeReachesItsDeadline() async throws {
        let clock = ExploreClock()
        let woke = KarcMutex(false)
        let sleeper = Task {
            try await clock.sleep(for: .seconds(2))
            woke.withLock { $0 = true }
        }
        while clock.sleepers == 0 { await Task.yield() }
        #expect(clock.advance(by: .seconds(1)) == 0)
        #expect(!woke.withLock { $0 })
        #expect(clock.advance(by: .seconds(1)) == 1)
        try await sleeper.value
        #expect(woke.withLock { $0 })
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func aCancelledSleeperLeavesTheClockAtOnce() async throws {
        let clock = ExploreClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        while clock.sleepers == 0 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepers == 0)
    }
}
