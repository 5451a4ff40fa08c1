import Foundation
import TestSupport
import Testing

/// A command-line number that cannot be one says what is wrong with it, not
/// that it is missing (`--runs -1`) or of the wrong form (`--commands 3-2`).
@Suite(.timeLimit(.minutes(1))) struct SubcommandArgumentTests {
    @Test func exploreRefusesANegativeOrZeroCountWithWhatItGot() async throws {
        let runs = try await KarcRun.run(["explore", "--runs", "-1"])
        #expect(runs.status == 64)
        #expect(runs.stderr.contains("--runs must be at least 1 (how many sequences to run), got -1"), "\(runs.stderr)")
        #expect(!runs.stderr.contains("Missing value"))
        let steps = try await KarcRun.run(["explore", "--steps", "0"])
        #expect(steps.status == 64)
        #expect(steps.stderr.contains("--steps must be at least 1 (the most commands a sequence sends), got 0"), "\(steps.stderr)")
    }

    @Test func aNegativeNumberIsTakenAsTheValueAndRefusedForWhatItIs() async throws {
        let seed = try await KarcRun.run(["explore", "--seed", "-1"])
        #expect(seed.status == 64)
        #expect(seed.stderr.contains("The value '-1' is invalid for '--seed <S>'"), "\(seed.stderr)")
        let limit = try await KarcRun.run(["--history-limit", "-1", "-e", ":quit"])
        #expect(limit.status == 64)
        #expect(limit.stderr.contains("--history-limit must be at least 1 (a number of commands), got -1"), "\(limit.stderr)")
    }

    @Test(arguments: [
        ("3-2", "error: --commands: the end is before the start in '3-2': write 2-3"),
        ("-1", "error: --commands: commands are numbered from 1 (:history numbers), got '-1'"),
        ("0-2", "error: --commands: commands are numbered from 1 (:history numbers), got '0-2'"),
        ("x", "error: --commands: expected a command's number or a range (3, 3-7; :history numbers), got 'x'"),
    ])
    func exportDiagramSaysWhatIsWrongWithTheRange(range: String, expected: String) async throws {
        let scratch = ScratchDirectory("karc-diagram-range")
        let script = scratch.file("flow.karc")
        try "counter.increment\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["export-diagram", script, "--commands", range])
        #expect(run.status == 1)
        #expect(run.stderr == expected + "\n")
        #expect(run.stdout.isEmpty)
    }
}
