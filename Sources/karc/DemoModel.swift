import Karc
import Synchronization

// The model `karc` runs until the shell arrives: a counter whose "milestones"
// pipeline is active only while the count is 3 or more.

struct Tally: Equatable, Initable, Sendable, CustomStringConvertible {
    var count = 0
    var description: String { "count: \(count)" }
}

protocol TallyCommand: Sendable {}
struct Add: TallyCommand { var amount = 1 }
struct Clear: TallyCommand {}
struct Celebrate: TallyCommand {}

enum TallyEffect: Sendable { case add(Int), clear }

protocol TallyEvent: Sendable {}
struct Added: TallyEvent { let count: Int }
struct Cleared: TallyEvent {}

final class TallyDomain: Domain<DefaultId, Tally, TallyCommand, TallyEvent>, @unchecked Sendable {}

final class TallyModel: Model<TallyDomain, DefaultId, Tally, TallyCommand, TallyEffect, TallyEvent>, @unchecked Sendable {
    /// Every event, in emission order, for the transcript.
    static let emitted = EventLog()

    override func didReduce(state: Tally, events: [TallyEvent]) {
        Self.emitted.append(events)
    }

    override func reducer(state: Tally, effect: TallyEffect) -> (Tally, [TallyEvent]) {
        switch effect {
        case .add(let amount):
            let count = state.count + amount
            return (Tally(count: count), [Added(count: count)])
        case .clear:
            return (Tally(), [Cleared()])
        }
    }

    @ScopesBuilder
    override func scopes(_ s: Tally, _ i: Interactor) -> [Scope] {
        i.main
        if s.count >= 3 {
            i.milestones
        }
    }
}

extension TallyModel.Interactor {
    func main() -> Pipeline {
        Pipeline {
            Pipe(id: "add", mode: .duplex(), source: commandSource) { (add: Add, _) -> Int in
                try await sendEffects(.add(add.amount))
                return await state.count
            }
            // Duplex, like every command here: its events are emitted before the reply.
            Pipe(id: "clear", mode: .duplex(), source: commandSource) { (_: Clear, _) in
                _ = try await sendEffects(.clear)
            }
        }
    }

    func milestones() -> Pipeline {
        Pipeline {
            Pipe(id: "celebrate", mode: .duplex(), source: commandSource) { (_: Celebrate, _) -> String in
                "🎉 \(await state.count) reached"
            }
        }
    }
}

/// The events the model emitted and the transcript has not printed yet.
final class EventLog: Sendable {
    private let events = Mutex<[any TallyEvent]>([])

    func append(_ new: [any TallyEvent]) { events.withLock { $0.append(contentsOf: new) } }

    func take() -> [any TallyEvent] {
        events.withLock { events in
            defer { events = [] }
            return events
        }
    }
}
