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

func builtInCluster() async throws -> Cluster {
    try await Bootstrap {
        Store(model: Counter.self)
            .mutate(on: Increment.self) { counter, increment, _ in counter.count += increment.value }
            .mutate(on: Reset.self) { counter, _, _ in counter.count = 0 }
            .with(model: Counter())
            .named("counter")
        TallyModel.service(.init(environ: Environ()), commands: [Add.self, Clear.self, Celebrate.self])
            .named("tally")
    }
}
