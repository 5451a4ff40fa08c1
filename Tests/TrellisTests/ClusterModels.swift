import Karc
import Trellis

// A Karc model for the cluster tests: `Relay` goes through two pipes, chained
// by an event, so `settled` must wait for both.
struct Counter: Equatable, Initable, Sendable {
    var count = 0
    var relayed = 0
}

protocol CounterCommand: Sendable {}
struct Increment: CounterCommand, Codable { var by = 1 }
struct Relay: CounterCommand, Codable {}

enum CounterEffect: Sendable {
    case add(Int)
    case relayed
}
enum CounterEvent: Sendable, Equatable {
    case added(Int)
    case relayStarted, relayFinished
}

@CheckedSendable
final class CounterDomain: Domain<DefaultId, Counter, CounterCommand, CounterEvent> {}

@CheckedSendable
final class KarcCounter: Model<CounterDomain, DefaultId, Counter, CounterCommand, CounterEffect, CounterEvent> {
    override func reducer(state: Counter, effect: CounterEffect) -> (Counter, [CounterEvent]) {
        var state = state
        switch effect {
        case .add(let n):
            state.count += n
            return (state, [.added(state.count)])
        case .relayed:
            state.relayed += 1
            return (state, state.relayed % 2 == 1 ? [.relayStarted] : [.relayFinished])
        }
    }

    @ScopesBuilder
    override func scopes(_ s: Counter, _ i: Interactor) -> [Scope] {
        i.main
    }
}

extension KarcCounter.Interactor {
    func main() -> Pipeline {
        Pipeline {
            Pipe(id: "increment", mode: .duplex(), source: commandSource) { (c: Increment, _) -> Int in
                let events = try await effectDrain.send([.add(c.by)])
                if case .added(let count) = events.last { return count }
                return -1
            }
            // Simplex: the send returns before the track runs; the delivery still counts as work.
            Pipe(id: "relay", mode: .simplex(), source: commandSource) { (_: Relay, _) in
                await Task.yield()  // suspends, as real work would, without waiting on a clock
                try await sendEffects(.relayed)
            }
            // Reacts to an event: more work after the first pipe is done.
            Pipe(id: "finish", mode: .simplex(), source: eventSource) { (event: CounterEvent, _) in
                guard event == .relayStarted else { return }
                await Task.yield()
                try await sendEffects(.relayed)
            }
        }
    }
}

// A Karc model whose start-up work runs in a finite pipe without a source, next
// to an infinite one that never ends: `settled` waits for the first only.
struct Restored: Equatable, Initable, Sendable { var value = 0 }
protocol RestoredCommand: Sendable {}
enum RestoredEffect: Sendable { case restore(Int) }
@CheckedSendable
final class RestoredDomain: Domain<DefaultId, Restored, RestoredCommand, Never> {}

@CheckedSendable
final class Restorer: Model<RestoredDomain, DefaultId, Restored, RestoredCommand, RestoredEffect, Never> {
    override func reducer(state: Restored, effect: RestoredEffect) -> (Restored, [Never]) {
        switch effect {
        case .restore(let value): (Restored(value: value), [])
        }
    }

    @ScopesBuilder
    override func scopes(_ s: Restored, _ i: Interactor) -> [Scope] {
        i.main
    }
}

extension Restorer.Interactor {
    func main() -> Pipeline {
        Pipeline {
            Pipe(id: "bootstrap", policy: .finite(count: 1)) { _, _ in
                try await Task.sleep(for: .milliseconds(50))
                try await sendEffects(.restore(42))
            }
            Pipe(id: "poll", policy: .infinite) { _, _ in
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }
}
