import Karc
import Testing
import TrellisTesting

/// A domain for UI code: its observed properties live on the main actor and
/// states arrive there, in order, before the send that made them returns.
struct Score: Equatable, Initable, Sendable {
    var points = 0
    /// Asks the domain's observer to send `.double` (from the main actor).
    var wantsDouble = false
}
enum ScoreCommand: Sendable {
    case add(Int)
    /// Adds `amount`; the domain's observer then sends `.double`.
    case addThenDouble(Int)
    case double
}
enum ScoreEffect: Sendable {
    case add(Int, thenDouble: Bool)
    case double
}

@CheckedSendable
final class ScoreDomain: Domain<DefaultId, Score, ScoreCommand, Never>, MainActorObserver {
    @MainActor private(set) var history: [Int] = []

    @MainActor func observe(state: Score) async {
        history.append(state.points)
        // Sending to its own model from the observer does not wait for itself.
        if state.wantsDouble { _ = try? await send(.double) }
    }
}

@CheckedSendable
final class ScoreModel: Model<ScoreDomain, DefaultId, Score, ScoreCommand, ScoreEffect, Never> {
    override func reducer(state: Score, effect: ScoreEffect) -> (Score, [Never]) {
        switch effect {
        case .add(let amount, let thenDouble): (Score(points: state.points + amount, wantsDouble: thenDouble), [])
        case .double: (Score(points: state.points * 2), [])
        }
    }

    @ScopesBuilder
    override func scopes(_ s: Score, _ i: Interactor) -> [Scope] {
        Pipeline {
            for n in 1...4 {
                Pipe(id: "add-\(n)", mode: .duplex(), source: i.commandSource) { (command: ScoreCommand, _) in
                    switch command {
                    case .add(let amount): _ = try await i.sendEffects(.add(amount, thenDouble: false))
                    case .addThenDouble(let amount): _ = try await i.sendEffects(.add(amount, thenDouble: true))
                    case .double: _ = try await i.sendEffects(.double)
                    }
                }
            }
        }
    }
}

@Suite(.isolatedModels, .timeLimit(.minutes(1))) struct MainActorObserverTests {
    @Test func theInitialStateIsObservedBySetUpsReturn() async throws {
        try await withScore { domain in
            #expect(await domain.history == [5])
        } initial: {
            Score(points: 5)
        }
    }

    @Test func eachSendReturnsOnceItsStateWasObservedOnTheMainActor() async throws {
        try await withScore { domain in
            for _ in 1...20 {
                try await domain.send(.add(1))
                let last = await domain.history.last
                #expect(last == (await domain.state).points)
            }
            #expect(await domain.history == Array(0...20))
        }
    }

    @Test func concurrentSendersAndReadersSeeEveryStateInOrder() async throws {
        try await withScore { domain in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { for _ in 0..<25 { try await domain.send(.add(1)) } }
                    group.addTask {
                        for _ in 0..<25 {
                            let seen = await domain.history
                            #expect(seen == seen.sorted())
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await domain.history == Array(0...100))
        }
    }

    @Test func anObserverMaySendToItsOwnModel() async throws {
        try await withScore { domain in
            try await domain.send(.addThenDouble(3))  // 3, and the observer sends +3
            try await domain.send(.add(1))  // observed after the observer's 6
            #expect(await domain.history == [0, 3, 6, 7])
        }
    }

    /// The score model set up (in the test's own pool, so the default id is free), torn down after `body`.
    private func withScore(
        _ body: @Sendable (ScoreDomain) async throws -> Void, initial: @Sendable () -> Score = { Score() }
    ) async throws {
        try await ScoreModel.setUp(.init(environ: Environ(), state: initial()))
        try await body(try await ScoreDomain.get)
        await ScoreModel.tearDown()
    }
}
