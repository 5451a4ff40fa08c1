import Karc

// The Karc model of karc's built-in cluster (until the demo cluster arrives):
// a tally whose "milestones" pipeline is active only while the count is 3 or more.

struct Tally: Equatable, Initable, Sendable, Codable {
    var count = 0
}

protocol TallyCommand: Sendable {}
struct Add: TallyCommand, Codable {
    var amount = 1

    init(from decoder: any Decoder) throws {
        amount = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .amount) ?? 1
    }
}
struct Clear: TallyCommand, Codable {}
struct Celebrate: TallyCommand, Codable {}

/// `tally.add-slowly [amount=Int, default 1] [seconds=Double, default 1]`: a simplex
/// command whose work goes on after the send returns; the shell waits for it.
struct AddSlowly: TallyCommand, Codable {
    var amount: Int
    var seconds: Double

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        amount = try container.decodeIfPresent(Int.self, forKey: .amount) ?? 1
        seconds = try container.decodeIfPresent(Double.self, forKey: .seconds) ?? 1
    }
}

/// `tally.check minimum=Int`: replies `.success(count)`, or `.failure` below the minimum.
struct Check: TallyCommand, Codable {
    var minimum: Int
}

struct BelowMinimum: Error, CustomStringConvertible {
    let count: Int
    let minimum: Int
    var description: String { "the tally is \(count), below \(minimum)" }
}

enum TallyEffect: Sendable { case add(Int), clear }

protocol TallyEvent: Sendable {}
struct Added: TallyEvent, Codable { let count: Int }
struct Cleared: TallyEvent, Codable {}

final class TallyDomain: Domain<DefaultId, Tally, TallyCommand, TallyEvent>, @unchecked Sendable {}

final class TallyModel: Model<TallyDomain, DefaultId, Tally, TallyCommand, TallyEffect, TallyEvent>, @unchecked Sendable {
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
            Pipe(id: "check", mode: .duplex(), source: commandSource) { (check: Check, _) -> Result<Int, BelowMinimum> in
                let count = await state.count
                return count >= check.minimum ? .success(count) : .failure(BelowMinimum(count: count, minimum: check.minimum))
            }
            Pipe(id: "add-slowly", mode: .simplex(), source: commandSource) { (add: AddSlowly, _) in
                try await Task.sleep(for: .seconds(max(0, min(add.seconds, 86_400))))
                _ = try await sendEffects(.add(add.amount))
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
