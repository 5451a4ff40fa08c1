import Testing
import Trellis

/// An observer that keeps its own picture of each state (the karc shell)
/// asks for no old states: a store then reports each change with its new
/// state only, after a first report that carries the old one, and changes
/// its model in place even while observed.
@Suite(.timeLimit(.minutes(1)))
struct OldStateReportTests {
    struct Big: Equatable, Sendable { var items: [Int] }
    struct Bump: Sendable { let index: Int }
    struct Small: Equatable, Sendable { var count = 0 }
    struct Tick: Sendable {}

    static func cluster() async throws -> Cluster {
        try await Bootstrap {
            Store(model: Big.self)
                .mutate(on: Bump.self) { big, bump, _ in big.items[bump.index] += 1 }
                .with(model: Big(items: Array(repeating: 0, count: 1_000)))
                .named("big")
            Store(model: Small.self)
                .mutate(on: Tick.self) { small, _, _ in small.count += 1 }
                .with(model: Small())
                .named("small")
        }
    }

    /// For each state report: the source, and whether the old state came with it.
    static func reports(_ records: [ClusterRecord]) -> [String] {
        records.compactMap { record in
            guard case .stateChanged(let source, let old, _) = record.kind else { return nil }
            return "\(source) \(old is StateNotKept ? "new only" : "old and new")"
        }
    }

    @Test func eachSourcesFirstReportCarriesTheOldStateAndTheNextOnesDoNot() async throws {
        let cluster = try await Self.cluster()
        let observation = cluster.observe(bufferSize: 100, keepingOldStates: false)
        try await cluster.send(action: Bump(index: 0))
        try await cluster.send(action: Bump(index: 1))
        try await cluster.send(action: Tick())
        try await cluster.send(action: Tick())
        #expect(Self.reports(observation.takeAvailable()) == ["big old and new", "big new only", "small old and new", "small new only"])

        cluster.hub.oldStates.restart()  // a new session on the same observation
        try await cluster.send(action: Bump(index: 2))
        #expect(Self.reports(observation.takeAvailable()) == ["big old and new"])
        await cluster.shutDown()
    }

    @Test func whileAnObserverWantsOldStatesEveryReportCarriesOne() async throws {
        let cluster = try await Self.cluster()
        let shell = cluster.observe(bufferSize: 100, keepingOldStates: false)
        let test = cluster.observe()
        try await cluster.send(action: Bump(index: 0))
        try await cluster.send(action: Bump(index: 1))
        #expect(Self.reports(shell.takeAvailable()) == ["big old and new", "big old and new"])
        #expect(Self.reports(test.takeAvailable()) == ["big old and new", "big old and new"])
        test.cancel()
        try await cluster.send(action: Bump(index: 2))
        try await cluster.send(action: Bump(index: 3))
        #expect(Self.reports(shell.takeAvailable()) == ["big old and new", "big new only"], "once more with the old state, then without")
        await cluster.shutDown()
    }

    @Test func reportedWithoutItsOldStateTheModelChangesWhereItLies() async throws {
        let cluster = try await Self.cluster()
        let observation = cluster.observe(bufferSize: 100, keepingOldStates: false)
        try await cluster.send(action: Bump(index: 0))
        _ = observation.takeAvailable()  // the first report, with the old state: let go
        func storage() async -> UInt? {
            let big = await cluster.target(named: "big")?.state?() as? Big
            return big?.items.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
        }
        let before = await storage()
        for index in 1..<50 {
            try await cluster.send(action: Bump(index: index))
            _ = observation.takeAvailable()  // as the shell does: each report let go before the next send
        }
        #expect(await storage() == before)
        await cluster.shutDown()
    }
}
