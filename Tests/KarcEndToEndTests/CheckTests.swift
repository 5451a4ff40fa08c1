import Foundation
import TestSupport
import Testing

/// `karc check`: a script's expected output under each command, compared,
/// shown as a unified diff when it differs, rewritten with `--update`.
@Suite(.timeLimit(.minutes(1))) struct CheckTests {
    let scratch = ScratchDirectory("karc-check")

    func write(_ text: String, to name: String) throws -> String {
        let path = scratch.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    static let counter = """
        # Two increments.
        counter.increment
        #= state  counter:
        #=   - CounterStore.State(count: 0)
        #=   + CounterStore.State(count: 1)
        counter.increment value=5
        #= state  counter:
        #=   - CounterStore.State(count: 1)
        #=   + CounterStore.State(count: 6)

        """

    @Test func aTranscriptThatMatchesPasses() async throws {
        let path = try write(Self.counter, to: "counter.karc")
        let run = try await KarcRun.run(["check", path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout == "ok      \(path)\n1 transcript: 1 passed\n")
        #expect(try read(path) == Self.counter, "a check writes nothing")
    }

    @Test func anEmptyTranscriptPassesAndUpdateFillsItOnceCommandsAreWritten() async throws {
        let path = try write("", to: "new.karc")
        let run = try await KarcRun.run(["check", path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout == "ok      \(path)\n1 transcript: 1 passed\n")
        #expect(try read(path) == "")
        _ = try write("counter.increment\n", to: "new.karc")
        let update = try await KarcRun.run(["check", "--update", path])
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        #expect(
            try read(path) == """
                counter.increment
                #= state  counter:
                #=   - CounterStore.State(count: 0)
                #=   + CounterStore.State(count: 1)

                """)
    }

    @Test func aMismatchIsAUnifiedDiffWithTheScriptsNameAndLinesAndFails() async throws {
        let path = try write(Self.counter.replacingOccurrences(of: "count: 6", with: "count: 7"), to: "counter.karc")
        let run = try await KarcRun.run(["check", path])
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                --- \(path) (expected)
                +++ \(path) (printed)
                @@ -6,4 +6,4 @@
                 counter.increment value=5
                 #= state  counter:
                 #=   - CounterStore.State(count: 1)
                -#=   + CounterStore.State(count: 7)
                +#=   + CounterStore.State(count: 6)
                FAILED  \(path)
                1 transcript: 0 passed, 1 failed

                """)
    }

    @Test func updateWritesWhatIsPrintedUnderEachCommandAndKeepsTheRest() async throws {
        let path = try write(
            "# Two increments.\ncounter.increment\n\n#= stale output under no command\ncounter.increment value=5\n#= wrong\n", to: "counter.karc")
        let update = try await KarcRun.run(["check", "--update", path])
        #expect(update.status == 0)
        #expect(update.stdout == "updated \(path)\n1 transcript: 0 passed, 1 updated\n")
        // The blank line is kept; output under no command is not.
        #expect(
            try read(path)
                == Self.counter.replacingOccurrences(of: "#=   + CounterStore.State(count: 1)\n", with: "#=   + CounterStore.State(count: 1)\n\n"))
        #expect(try await KarcRun.run(["check", path]).status == 0)
    }

    @Test func anErrorIsPartOfTheTranscriptNamedByTheScriptsLineAsItWillRead() async throws {
        let path = try write("counter.incremnt\ncounter.increment\n", to: "errors.karc")
        #expect(try await KarcRun.run(["check", "--update", path]).status == 0)
        let updated = try read(path)
        #expect(updated.hasPrefix("counter.incremnt\n#= errors.karc:1:9: error: unknown command 'incremnt' for counter; did you mean 'increment'?"))
        // The second command moved down a line; had it failed, its error would name line 3.
        #expect(updated.contains("\ncounter.increment\n#= state  counter:\n"))
        // Where check runs from does not change the transcript: scripts are named from their own directory.
        let elsewhere = try await ChildProcess.run(["/bin/sh", "-c", #"cd / && exec "$0" check "$1""#, KarcRun.binaryPath, path])
        #expect(elsewhere.status == 0, "\(String(decoding: elsewhere.stdout, as: UTF8.self))")
    }

    @Test func masksReplaceWhatDiffersOnEveryRun() async throws {
        let path = try write("#mask duration\n#mask n count: [0-9]+\n:timing on\ncounter.increment\n", to: "masked.karc")
        #expect(try await KarcRun.run(["check", "--update", path]).status == 0)
        #expect(
            try read(path) == """
                #mask duration
                #mask n count: [0-9]+
                :timing on
                counter.increment
                #= state  counter:
                #=   - CounterStore.State(<n>)
                #=   + CounterStore.State(<n>)
                #= time   <duration>

                """)
        for _ in 0..<2 { #expect(try await KarcRun.run(["check", path]).status == 0) }
    }

    /// What `--update` writes passes the next check: the times of day
    /// (`:blame`) and durations (`:timing`, `:trace`) it printed are masked
    /// with the built-in masks, added at the top, and it says so.
    @Test func updateMasksTheTimesAndDurationsItPrintedSoTheNextCheckPasses() async throws {
        let path = try write("counter.increment\n:blame counter.count\n:timing on\ncounter.increment\n", to: "times.karc")
        let update = try await KarcRun.run(["check", "--update", path])
        #expect(
            update.stdout.hasPrefix("updated \(path) (added #mask duration, #mask time: what they match differs on every run)\n"), "\(update.stdout)")
        let written = try read(path)
        #expect(written.hasPrefix("#mask duration\n#mask time\ncounter.increment\n"), "\(written)")
        #expect(written.contains("#=   #1  <time>  counter.increment   0 → 1\n"), "\(written)")
        #expect(written.contains("#= time   <duration>\n"), "\(written)")
        let again = try await KarcRun.run(["check", path])
        #expect(again.status == 0, "\(again.stdout)")
    }

    @Test func aQuitEndsTheRunAndTheCommandsAfterItPrintNothing() async throws {
        let path = try write("counter.increment\n:quit\ncounter.increment\n#= never printed\n", to: "quit.karc")
        let run = try await KarcRun.run(["check", path, "--update"])
        #expect(run.status == 0)
        #expect(try read(path).hasSuffix(":quit\ncounter.increment\n"))
    }

    @Test func badTranscriptsAreNamedAndTheOthersStillChecked() async throws {
        let good = try write(Self.counter, to: "good.karc")
        let unknownMask = try write("counter.increment\n#mask colour\n", to: "unknown.karc")
        let badPattern = try write("#mask n [0-9\n", to: "pattern.karc")
        let unnamed = try write("#mask\n", to: "unnamed.karc")
        let missing = scratch.file("missing.karc")
        let run = try await KarcRun.run(["check", unknownMask, badPattern, unnamed, missing, scratch.path, good])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                \(unknownMask):2: error: no built-in mask named 'colour' (built in: uuid, date, duration, time); give a pattern: #mask colour PATTERN
                \(badPattern):1: error: the pattern of mask 'n' is not a regular expression: [0-9
                \(unnamed):1: error: a mask needs a name of letters, digits, - and _: #mask NAME (built in: uuid, date, duration, time) or #mask NAME PATTERN
                error: cannot read the transcript \(missing): no such file
                error: cannot read the transcript \(scratch.path): not UTF-8 text, or not readable

                """)
        #expect(run.stdout == "ok      \(good)\n6 transcripts: 1 passed, 5 failed\n")
    }

    @Test func checkNeedsATranscript() async throws {
        let run = try await KarcRun.run(["check"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("name at least one transcript to check"))
        let help = try await KarcRun.run(["check", "--help"])
        #expect(help.stdout.contains("USAGE: karc check [<FILE> ...] [--update]"))
        #expect(try await KarcRun.run(["--help"]).stdout.contains("\n  check                   Run transcripts against a fresh karc cluster"))
    }

    @Test func eachTranscriptRunsOnAFreshDemoThatLeavesNothingBehind() async throws {
        let path = try write(Self.counter, to: "counter.karc")
        let temporary = scratch.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let run = try await KarcRun.run(["check", "--tick", "2s", path, path], environment: ["TMPDIR": temporary])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
        let export = try await KarcRun.run(["export-test", path], environment: ["TMPDIR": temporary])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    }

    @Test func theToolsNeitherTakeNorListTheLiveDemosPersistenceOptions() async throws {
        let path = try write(Self.counter, to: "counter.karc")
        for tool in ["check", "export-test", "export-diagram", "explore"] {
            let help = try await KarcRun.run([tool, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("--tick"), "\(tool) takes the demo's own options:\n\(help.stdout)")
            #expect(!help.stdout.contains("--state-dir") && !help.stdout.contains("--fresh"), "\(tool) --help:\n\(help.stdout)")
        }
        for option in ["--state-dir", "--fresh"] {
            let run = try await KarcRun.run(["check", option] + (option == "--fresh" ? [] : [scratch.path]) + [path])
            #expect(run.status == 64)
            #expect(run.stderr.hasPrefix("Error: Unknown option '\(option)'\n"), "\(run.stderr)")
        }
        // The shell and `serve`, on the live demo, take both.
        let help = try await KarcRun.run(["--help"])
        #expect(help.stdout.contains("--state-dir") && help.stdout.contains("--fresh"))
        let serve = try await KarcRun.run(["serve", "--help"])
        #expect(serve.stdout.contains("--state-dir") && serve.stdout.contains("--fresh"))
    }

    @Test func aPlainRunReadsTheExpectationsAsComments() async throws {
        let path = try write(Self.counter, to: "counter.karc")
        let run = try await KarcRun.run(["--echo", path])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("#="), "an echo leaves out a transcript's own lines:\n\(run.stdout)")
        #expect(run.stdout.hasPrefix("> # Two increments.\n> counter.increment\nstate  counter:\n"))
    }
}
