import Testing
import TrellisTesting

@testable import Karc

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct EventOrderTests {
    @Test func eightConcurrentSendersEveryReceiverSeesTheReducerOrder() async throws {
        let domain = try await CounterModel.make()
        let first = domain.receiver()
        let second = domain.receiver()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 { _ = try await domain.send(Increment()) }
                }
            }
            try await group.waitForAll()
        }
        await CounterModel.tearDown(id: domain.id)
        var a: [Int] = []
        var b: [Int] = []
        for try await e in first { a.append((e as? Incremented)?.count ?? -1) }
        for try await e in second { b.append((e as? Incremented)?.count ?? -1) }
        #expect(a == Array(1...4_000))
        #expect(b == a)
    }

    @Test func aReceiverThatStopsIteratingNeverBlocksTheOthers() async throws {
        let domain = try await CounterModel.make()
        let steady = domain.receiver()
        let quitting = domain.receiver()
        let quitter = Task {
            for try await _ in quitting { break }
        }
        _ = try await domain.send(Increment())
        try await quitter.value
        for _ in 0..<100 { _ = try await domain.send(Increment()) }
        await CounterModel.tearDown(id: domain.id)
        var count = 0
        for try await _ in steady { count += 1 }
        #expect(count == 101)
    }
}
