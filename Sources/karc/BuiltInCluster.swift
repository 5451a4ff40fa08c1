import Karc
import Trellis

// karc's built-in cluster until the demo cluster arrives: a `counter` store
// and the `tally` Karc model.

/// The counter's state: a value model, kept by its store.
struct Counter: Equatable, Sendable, Codable {
    var count = 0
}

/// `counter.increment [value=Int, default 1]`
struct Increment: Sendable, Codable {
    var value: Int

    init(from decoder: any Decoder) throws {
        value = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .value) ?? 1
    }
}

/// `counter.reset`
struct Reset: Sendable, Codable {}

/// `counter.increment-later [value=Int, default 1] [seconds=Double, default 1]`: a timer
/// that sends `increment` later; its change is printed when it happens (above the prompt).
struct IncrementLater: Sendable, Codable {
    var value: Int
    var seconds: Double

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Int.self, forKey: .value) ?? 1
        seconds = try container.decodeIfPresent(Double.self, forKey: .seconds) ?? 1
    }
}

extension Increment {
    init(value: Int) { self.value = value }
}

func builtInCluster() async throws -> Cluster {
    try await Bootstrap {
        Store(model: Counter.self)
            .mutate(on: Increment.self) { counter, increment, _ in counter.count += increment.value }
            .mutate(on: Reset.self) { counter, _, _ in counter.count = 0 }
            .mutate(on: IncrementLater.self) { _, later, send in
                // A timer, not work in flight: the shell does not wait for it.
                Task {
                    try await Task.sleep(for: .seconds(max(0, min(later.seconds, 86_400))))
                    try await send(Increment(value: later.value))
                }
            }
            .with(model: Counter())
            .named("counter")
        TallyModel.service(.init(environ: Environ()), commands: [Add.self, Clear.self, Celebrate.self, AddSlowly.self, Check.self])
            .named("tally")
    }
}
