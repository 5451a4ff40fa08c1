// The library example of README.md, verbatim between the markers;
// ReadmeExampleTests checks that README.md still shows exactly this code.
// README-BEGIN
import Karc

struct Counter: Equatable, Initable, Sendable { var count = 0 }
struct Increment: Sendable { var by = 1 }
struct Incremented: Sendable { let count: Int }

@CheckedSendable
final class CounterDomain: Domain<DefaultId, Counter, Increment, Incremented> {}

@CheckedSendable
final class CounterModel: Model<CounterDomain, DefaultId, Counter, Increment, Int, Incremented> {
    // Pure: the only way the state changes.
    override func reducer(state: Counter, effect: Int) -> (Counter, [Incremented]) {
        let count = state.count + effect
        return (Counter(count: count), [Incremented(count: count)])
    }

    // What runs in each state; re-evaluated after every change.
    @ScopesBuilder
    override func scopes(_ state: Counter, _ i: Interactor) -> [Scope] {
        i.main
    }
}

extension CounterModel.Interactor {
    func main() -> Pipeline {
        Pipeline {
            // Duplex: `send` returns what the track returns.
            Pipe(id: "increment", mode: .duplex(), source: commandSource) { (command: Increment, _) -> Int in
                let events = try await sendEffects(command.by)
                return events.last?.count ?? 0
            }
        }
    }
}

func countToThree() async throws -> [Int] {
    try await CounterModel.setUp(.init(environ: Environ()))
    let counter = try await CounterDomain.get
    let events = counter.receiver()
    _ = try await counter.send(Increment(by: 2))
    _ = try await counter.send(Increment())
    await CounterModel.tearDown()
    var counts: [Int] = []
    for try await event in events { counts.append(event.count) }  // ends at tear-down
    return counts  // [2, 3]
}
// README-END
