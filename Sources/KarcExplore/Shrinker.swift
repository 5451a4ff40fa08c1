import KarcSession

/// Makes a failing sequence as small as it gets while it still fails the
/// same way: first whole commands go (halves, then quarters, down to one
/// at a time), then each command is made simpler (an optional field left
/// out, a value nearer zero or the empty string), and again until neither
/// helps. Every candidate is replayed on a fresh cluster.
package struct Shrinker: Sendable {
    /// Replays a sequence: the failure it ends in, at which command, and the
    /// commands as they were sent (reused values as that replay found them);
    /// nil when it passes.
    package typealias Replay = @Sendable ([ExploreCommand]) async -> Replayed?

    /// How a replay failed: the failure, at which command, the commands as
    /// sent, and which of them the cluster refused.
    package struct Replayed: Sendable {
        package var failure: ExploreFailure
        package var at: Int
        package var sent: [ExploreCommand]
        package var refused: Set<Int> = []

        package init(failure: ExploreFailure, at: Int, sent: [ExploreCommand], refused: Set<Int> = []) {
            (self.failure, self.at, self.sent, self.refused) = (failure, at, sent, refused)
        }
    }

    let replay: Replay
    /// Stop trying after this many replays (what is left is still a failing sequence).
    let budget: Int
    /// Asked before each replay: true stops the shrink (Ctrl-C), which keeps what it has.
    let stop: @Sendable () -> Bool
    /// Told after each replay: the replays so far and the commands left.
    let told: @Sendable (_ replays: Int, _ left: Int) -> Void

    package init(
        budget: Int = 2_000, stop: @escaping @Sendable () -> Bool = { false }, told: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        replay: @escaping Replay
    ) {
        self.replay = replay
        self.budget = budget
        self.stop = stop
        self.told = told
    }

    /// What shrinking found: the smallest sequence, its failure (as the last
    /// replay told it), and how many replays it took.
    package struct Result: Sendable {
        package var commands: [ExploreCommand]
        /// Which of `commands` the cluster refused in the last replay.
        package var refused: Set<Int> = []
        package var failure: ExploreFailure
        package var replays: Int
        /// Whether ``stop`` ended it before it was done: `commands` still
        /// fail, but may shrink further.
        package var stopped = false
    }

    /// `commands`, which fail with `failure` at their last command (the
    /// cluster refusing those in `refused`), made small.
    package func shrink(_ commands: [ExploreCommand], failing failure: ExploreFailure, refused: Set<Int> = []) async -> Result {
        var best = Result(commands: commands, refused: refused, failure: failure, replays: 0)
        var goesOn: Bool {
            guard best.replays < budget else { return false }
            if !best.stopped, stop() { best.stopped = true }
            return !best.stopped
        }
        func attempt(_ candidate: [ExploreCommand]) async -> Bool {
            guard goesOn, !candidate.isEmpty else { return false }
            best.replays += 1
            defer { told(best.replays, best.commands.count) }
            // A replay the stop cut short says nothing of the candidate.
            guard let found = await replay(candidate), found.failure == failure, !stop() else { return false }
            // What ran after the failing command is not needed to show it.
            best.commands = Array(found.sent.prefix(found.at + 1))
            best.refused = found.refused
            best.failure = found.failure
            return true
        }
        var changed = true
        while changed, goesOn {
            changed = false
            // Whole commands: chunks of halving size, from the front.
            var size = max(1, best.commands.count / 2)
            while size >= 1, goesOn {
                var start = 0
                while start < best.commands.count, goesOn {
                    var candidate = best.commands
                    candidate.removeSubrange(start..<min(start + size, candidate.count))
                    if await attempt(candidate) { changed = true } else { start += size }
                }
                if size == 1 { break }
                size /= 2
            }
            // Each command simpler, one way at a time.
            var index = 0
            while index < best.commands.count, goesOn {
                var simplified = false
                for simpler in best.commands[index].simpler {
                    var candidate = best.commands
                    candidate[index] = simpler
                    if await attempt(candidate) {
                        simplified = true
                        changed = true
                        break
                    }
                }
                if !simplified { index += 1 }
            }
        }
        return best
    }
}
