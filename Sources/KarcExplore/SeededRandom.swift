import KarcSession

/// A random number generator that replays: the same seed gives the same
/// numbers on every machine (SplitMix64), so a run of `explore` is repeated
/// exactly with `--seed`.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Numbers from `seed`.
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The generator of run `run` of the exploration seeded `seed`: each run
    /// starts from a seed of its own, so a run replays without the ones before.
    package static func run(_ run: Int, of seed: UInt64) -> SeededRandom {
        var mixer = SeededRandom(seed: seed ^ (UInt64(run) &* 0xD6E8_FEB8_6659_FD93))
        return SeededRandom(seed: mixer.next())
    }

    /// True with probability `chance` (0…1).
    package mutating func chance(_ chance: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < chance
    }

    /// An element of `items`, which must not be empty.
    package mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }
}
