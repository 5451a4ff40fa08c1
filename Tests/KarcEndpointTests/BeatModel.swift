import Karc
import TestSupport
import Trellis

/// A model whose every command emits one numbered event: what the attached
/// shells must each see, all of them, in order.
struct Beats: Equatable, Initable, Sendable { var count = 0 }
struct Beat: Codable, Sendable { var n: Int }
struct Beaten: Sendable, Equatable { let n: Int }

@CheckedSendable
final class BeatDomain: Domain<String, Beats, Beat, Beaten> {}

@CheckedSendable
final class BeatModel: Model<BeatDomain, String, Beats, Beat, Int, Beaten> {
    override func reducer(state: Beats, effect: Int) -> (Beats, [Beaten]) {
        (Beats(count: state.count + 1), [Beaten(n: effect)])
    }

    @ScopesBuilder
    override func scopes(_ s: Beats, _ i: Interactor) -> [Scope] {
        i.main
    }
}

extension BeatModel.Interactor {
    func main() -> Pipeline {
        Pipeline {
            for n in 1...4 {
                Pipe(id: "beat-\(n)", mode: .duplex(), source: commandSource) { (beat: Beat, _) -> Int in
                    _ = try await sendEffects(beat.n)
                    return beat.n
                }
            }
        }
    }
}

/// A cluster with one beating model, and a store whose `slow.hold` sends
/// take until the test opens `latch`.
func beatingCluster(latch: Latch = Latch()) async throws -> Cluster {
    try await Bootstrap {
        BeatModel.service(.init(environ: Environ(), id: "beat"), events: [Beaten.self]).named("beat")
        Store(model: Slow.self)
            .mutate(on: Hold.self) { slow, _, _ in
                await latch.wait()
                slow.done += 1
            }
            .with(model: Slow())
            .named("slow")
    }
}

struct Slow: Equatable, Sendable { var done = 0 }
struct Hold: Codable, Sendable, Action {}
