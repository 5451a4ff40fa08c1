import Foundation
import TestSupport
import Testing

/// `explore` run as a user runs it: the real binaries, clusters with planted
/// bugs (Tests/Fixtures/ExplorePlanted), the sequences in a child process,
/// each failure shrunk to its smallest script and that script replayed.
@Suite(.timeLimit(.minutes(3)))
struct ExploreEndToEndTests {
    static var planted: String {
        URL(fileURLWithPath: KarcRun.binaryPath).deletingLastPathComponent().appendingPathComponent("explore-planted").path
    }

    static func explore(_ bug: String, _ extra: [String] = [], in scratch: ScratchDirectory, out: String? = nil) async throws -> KarcRun {
        try await KarcRun.run(
            ["explore", "--bug", bug, "--seed", "1", "--out", out ?? scratch.path, "--json"] + extra, binary: planted)
    }

    static func failure(of run: KarcRun) throws -> [String: Any] {
        try #require(run.jsonLines.first { $0["kind"] as? String == "failure" }, "no failure in: \(run.stdout)\(run.stderr)")
    }

    @Test func aCrashAfterThreeCommandsInOrderIsCaughtShrunkAndReplaysAsACrash() async throws {
        let scratch = ScratchDirectory("explore-crash")
        let run = try await Self.explore("crash", in: scratch)
        #expect(run.status == 1)
        let failure = try Self.failure(of: run)
        #expect(failure["failure"] as? String == "crash")
        #expect((failure["message"] as? String)?.contains("Fatal error: planted: the vault opened after a, b, c") == true)
        #expect(failure["script"] as? [String] == ["vault.a", "vault.b", "vault.c"])
        #expect(failure["reproduced"] as? Bool == true)
        let file = try #require(failure["file"] as? String)
        // Named after the crash, the command it crashed in and a hash of the commands: another crash gets another name.
        #expect(file.contains("/crash-sigill-vault-c-") || file.contains("/crash-sigtrap-vault-c-"))
        #expect(file.hasSuffix(".karc"))
        let script = try String(contentsOfFile: file, encoding: .utf8)
        #expect(script.hasPrefix("# explore found: the process crashed"))
        #expect(script.hasSuffix("vault.a\nvault.b\nvault.c\n"))
        // The script replays the crash in the app's own shell.
        let replay = try await KarcRun.run(["--bug", "crash", file], environment: ["SWIFT_BACKTRACE": "enable=no"], binary: Self.planted)
        #expect(replay.status > 128)
        #expect(replay.stderr.contains("planted: the vault opened"))
    }

    @Test func anInvariantBrokenOnlyWhenTwoTargetsInterleaveIsShrunkToTheInterleaving() async throws {
        let scratch = ScratchDirectory("explore-interleave")
        let run = try await Self.explore("interleave", in: scratch)
        #expect(run.status == 1)
        let failure = try Self.failure(of: run)
        #expect(failure["failure"] as? String == "invariant")
        #expect(failure["message"] as? String == "invariant 'units never negative' of stock does not hold after orders.ship")
        let script = try #require(failure["script"] as? [String])
        #expect(script == ["orders.place", "stock.sell", "orders.ship"] || script == ["stock.sell", "orders.place", "orders.ship"])
        // Replayed by the app's own shell, the script fails on the invariant.
        let replay = try await KarcRun.run(["--bug", "interleave", try #require(failure["file"] as? String)], binary: Self.planted)
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("invariant 'units never negative' of stock does not hold after orders.ship"))
    }

    @Test func aHangReachableOnlyFromADeepStateIsATimeoutShrunkToTheDive() async throws {
        let scratch = ScratchDirectory("explore-hang")
        let run = try await Self.explore("hang", ["--timeout", "300ms"], in: scratch)
        #expect(run.status == 1)
        let failure = try Self.failure(of: run)
        #expect(failure["failure"] as? String == "timeout")
        #expect(failure["script"] as? [String] == ["deep.step", "deep.step", "deep.step", "deep.step", "deep.dive"])
    }

    @Test func anErrorIsABugOnlyWhenFailOnNamesItsType() async throws {
        let scratch = ScratchDirectory("explore-error")
        let refused = try await Self.explore("error", ["--runs", "20"], in: scratch)
        #expect(refused.status == 0)
        #expect(refused.jsonLines.last?["failures"] as? Int == 0)
        let run = try await Self.explore("error", ["--fail-on", "SafeJammed"], in: scratch)
        #expect(run.status == 1)
        let failure = try Self.failure(of: run)
        #expect(failure["failure"] as? String == "error")
        let script = try #require(failure["script"] as? [String])
        #expect(script.count == 2)
        #expect(script.first?.hasPrefix("safe.set code=") == true)
        #expect(script.last?.hasPrefix("safe.open code=") == true)
        #expect(script[0].dropFirst("safe.set ".count) == script[1].dropFirst("safe.open ".count))
    }

    @Test func theSameSeedFindsTheSameFailureAfterTheSameCommands() async throws {
        let scratch = ScratchDirectory("explore-seed")
        let first = try Self.failure(of: try await Self.explore("interleave", in: scratch))
        let second = try Self.failure(of: try await Self.explore("interleave", in: scratch))
        #expect(first["run"] as? Int == second["run"] as? Int)
        #expect(first["original"] as? Int == second["original"] as? Int)
        #expect(first["script"] as? [String] == second["script"] as? [String])
    }

    @Test func theReadableReportNamesTheSeedTheShrinkAndTheScript() async throws {
        let scratch = ScratchDirectory("explore-readable")
        let run = try await KarcRun.run(["explore", "--bug", "interleave", "--seed", "1", "--out", scratch.path], binary: Self.planted)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("explore: seed 1, 100 runs of up to 50 commands\n"))
        #expect(run.stdout.contains("failure: invariant 'units never negative' of stock does not hold after orders.ship\n"))
        #expect(run.stdout.contains("; shrunk to 3 ("))
        #expect(run.stdout.contains("  wrote \(scratch.path)/invariant-units-never-negative-of-stock-"))
        #expect(
            run.stdout.contains(".karc: replay it with `explore-planted --bug interleave \(scratch.path)/invariant-units-never-negative-of-stock-"))
        #expect(run.stdout.hasSuffix("repeat with `explore-planted explore --bug interleave --seed 1 --runs 100 --steps 50`\n"))
    }

    @Test func badArgumentsAreClearErrorsAndNothingRuns() async throws {
        let scratch = ScratchDirectory("explore-errors")
        let unknown = try await Self.explore("interleave", ["--targets", "nope"], in: scratch)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("error: --targets: no target 'nope'; targets: stock, orders"))
        let skip = try await Self.explore("interleave", ["--skip", "stock.fly"], in: scratch)
        #expect(skip.status == 2)
        #expect(skip.stderr.contains("error: --skip: no command or target 'stock.fly' (write target.command)"))
        let runs = try await Self.explore("interleave", ["--runs", "0"], in: scratch)
        #expect(runs.status == 64)
        #expect(runs.stderr.contains("--runs must be at least 1"))
    }

    @Test func aClusterThatCannotStartOrATestWithoutAFactoryStopsBeforeAnyRun() async throws {
        let scratch = ScratchDirectory("explore-start")
        let unstartable = try await Self.explore("unstartable", in: scratch)
        #expect(unstartable.status == 2)
        #expect(unstartable.stderr.contains("error: cannot start the cluster: the planted cluster's store is missing"), "\(unstartable.stderr)")
        let test = try await Self.explore("interleave", ["--export-test"], in: scratch)
        #expect(test.status == 2)
        #expect(test.stderr.contains("error: --export-test needs the test's cluster factory: --test-factory EXPR"))
        #expect(test.stdout.isEmpty)
    }

    @Test func aFailureWhoseScriptCannotBeWrittenIsStillReportedWithTheReason() async throws {
        let scratch = ScratchDirectory("explore-unwritable")
        // A file where the directory should be.
        #expect(FileManager.default.createFile(atPath: scratch.file("taken"), contents: Data()))
        let run = try await Self.explore("interleave", [], in: scratch, out: scratch.file("taken"))
        #expect(run.status == 1)
        let failure = try Self.failure(of: run)
        #expect(failure["file"] == nil)
        #expect(failure["script"] as? [String] != nil)
        #expect(run.stderr.contains("error: cannot write \(scratch.file("taken"))"), "\(run.stderr)")
    }

    @Test func narrowedToOneTargetOnlyItsCommandsAreSentAndNothingBreaks() async throws {
        let scratch = ScratchDirectory("explore-narrow")
        let run = try await Self.explore("interleave", ["--targets", "stock", "--runs", "10"], in: scratch)
        #expect(run.status == 0)
        #expect(run.jsonLines.last?["commands"] as? Int == 500)
    }

    @Test(.enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
    func onATerminalAProgressLineSaysHowFarItGotAndIsClearedAtTheEnd() async throws {
        let scratch = ScratchDirectory("explore-progress")
        try await Tmux.session { tmux in
            try await tmux.start()
            await tmux.send(text: "export NO_COLOR=1 PS1='$ '; clear", enter: true)
            // Ten seconds of progress to see: on a loaded machine the pane's polling can miss a shorter run.
            await tmux.send(
                text: "\(KarcRun.binaryPath) explore --runs 1000000 --seed 3 --time-limit 10s --out \(scratch.path); echo EXIT=$?", enter: true)
            await tmux.expect("no progress line") { pane in
                pane.split(separator: "\n").contains { $0.hasPrefix("run ") && $0.contains(" commands, 0 failures, ") && $0.hasSuffix(" commands/s") }
            }
            await tmux.expect { $0.contains("EXIT=0") }
            let pane = await tmux.capture()
            #expect(pane.contains("stopped: the time limit (10s) was reached after "))
            #expect(!pane.contains("commands/s"), "the progress line is cleared: \(pane)")
        }
    }

    /// README's "Find the sequence that breaks it" shows this run.
    @Test func readmesShopOverflowsAsReadmeShows() async throws {
        let scratch = ScratchDirectory("explore-shop")
        let shop = URL(fileURLWithPath: KarcRun.binaryPath).deletingLastPathComponent().appendingPathComponent("shop-example").path
        let run = try await KarcRun.run(["explore", "--seed", "1", "--out", scratch.path], binary: shop)
        #expect(run.status == 1)
        // The runtime's message comes from its backtracer, which a ThreadSanitizer build does not run.
        #if KARC_TSAN
        let said = ""
        #else
        let said = ": Swift runtime failure: arithmetic overflow"
        #endif
        #expect(
            run.stdout.contains(
                """
                failure: the process crashed (SIGILL)\(said)
                  run 4 of seed 1, after 3 commands; shrunk to 2 (
                """))
        #expect(
            run.stdout.contains(
                """
                    cart.add name="A" quantity=-9223372036854775808
                    cart.add name="A" quantity=-9223372036854775808
                """))
        let file = "\(scratch.path)/crash-sigill-cart-add-2c5874cb.karc"
        #expect(run.stdout.contains("  wrote \(file): replay it with `shop-example \(file)`"))
        #expect(run.stdout.hasSuffix("repeat with `shop-example explore --seed 1 --runs 100 --steps 50`\n"))
    }

    @Test func theDemoExploresCleanAndItsOverflowStaysFixed() async throws {
        let scratch = ScratchDirectory("explore-demo")
        let run = try await KarcRun.run(["explore", "--runs", "20", "--seed", "2", "--out", scratch.path, "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.jsonLines.last?["failures"] as? Int == 0)
        // What explore found crashing the demo, kept as a regression script.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/explore/counter-overflow.karc")
            .standardized.path
        let replay = try await KarcRun.run(["--fresh", script])
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("counter.increment failed: the count 3 cannot take 9223372036854775805 more: it would pass Int.max"))
    }
}
