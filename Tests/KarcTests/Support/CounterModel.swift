import Karc

struct Counter: Equatable, Initable, Sendable {
    var count = 0
}

protocol CounterCommand: Sendable {}
struct Increment: CounterCommand { var by = 1 }
struct Reset: CounterCommand {}
struct Note: CounterCommand { let text: String }

enum CounterEffect: Sendable {
    case add(Int)
    case reset
}

protocol CounterEvent: Sendable {}
struct Incremented: CounterEvent, Equatable { let count: Int }
struct WasReset: CounterEvent, Equatable {}

@CheckedSendable
final class CounterDomain: Domain<String, Counter, CounterCommand, CounterEvent> {
    // Written by observe(state:) while tests read it from other tasks: behind Observed's lock.
    @Observed private(set) var observedCounts: [Int] = []

    override func observe(state: Counter) {
        $observedCounts.modify { $0.append(state.count) }
    }
}

/// A counter: `Increment` is duplex (answers the new count, capacity 8), `Reset` and `Note` are simplex.
@CheckedSendable
final class CounterModel: Model<CounterDomain, String, Counter, CounterCommand, CounterEffect, CounterEvent> {
    override func reducer(state: Counter, effect: CounterEffect) -> (Counter, [CounterEvent]) {
        switch effect {
        case .add(let amount):
            return (Counter(count: state.count + amount), [Incremented(count: state.count + amount)])
        case .reset:
            return (Counter(), [WasReset()])
        }
    }

    @ScopesBuilder
    override func scopes(_ s: Counter, _ i: Interactor) -> [Scope] {
        i.main
    }

    override func willReduce(state: Counter, effects: [CounterEffect]) {
        environ.probe.record("will \(state.count)")
    }

    override func didReduce(state: Counter, events: [CounterEvent]) {
        environ.probe.record("did \(state.count)")
    }

    override func onSetUp() { environ.probe.record("set up") }
    override func onTearDown() { environ.probe.record("torn down") }
}

extension CounterModel.Interactor {
    func main() -> Pipeline {
        Pipeline {
            // Eight pipes: up to eight increments in flight at once.
            for n in 1...8 {
                Pipe(id: "increment-\(n)", mode: .duplex(), source: commandSource) { (command: Increment, _) -> Int in
                    let events = try await sendEffects(.add(command.by))
                    return (events.last as? Incremented)?.count ?? -1
                }
            }
            Pipe(id: "reset", mode: .simplex(), source: commandSource) { (_: Reset, _) in
                try await sendEffects(.reset)
            }
            Pipe(id: "note", mode: .simplex(), source: commandSource) { (note: Note, _) in
                environ.probe.record("note \(note.text)")
            }
        }
    }
}

extension CounterModel {
    /// Sets a fresh counter up under a unique id and returns its domain.
    static func make(_ probe: Probe = Probe()) async throws -> CounterDomain {
        let id = "counter"
        try await setUp(Config(environ: .probing(probe), id: id))
        return try await CounterDomain.get(id: id)
    }
}
