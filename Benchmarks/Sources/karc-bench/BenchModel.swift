import Karc

/// The model every Karc benchmark drives: a counter whose duplex pipes send one
/// effect per command, and whose reducer increments and emits one event.
struct Tally: Equatable, Initable, Sendable { var count = 0 }

protocol TallyCommand: Sendable {}
/// Increment through one effect; answers the new count.
struct Bump: TallyCommand {}
/// Reduce `count` effects one by one, as fast as the pipe can send them.
struct Burst: TallyCommand { let count: Int }

struct Bumped: Sendable { let count: Int }

final class TallyDomain: Domain<String, Tally, TallyCommand, Bumped>, @unchecked Sendable {}

final class TallyModel: Model<TallyDomain, String, Tally, TallyCommand, Int, Bumped>, @unchecked Sendable {
    override func reducer(state: Tally, effect: Int) -> (Tally, [Bumped]) {
        let next = state.count + effect
        return (Tally(count: next), [Bumped(count: next)])
    }

    @ScopesBuilder
    override func scopes(_ s: Tally, _ i: Interactor) -> [Scope] {
        i.main
    }
}

extension TallyModel.Interactor {
    func main() -> Pipeline {
        Pipeline {
            for n in 1...8 {
                Pipe(id: "bump-\(n)", mode: .duplex(), source: commandSource) { (_: Bump, _) -> Int in
                    let events = try await effectDrain.send([1])
                    return events.last?.count ?? -1
                }
            }
            Pipe(id: "burst", mode: .duplex(), source: commandSource) { (burst: Burst, _) in
                for _ in 0..<burst.count { try await effectDrain.send([1]) }
            }
        }
    }
}
