import Foundation
import TestSupport
import Testing

/// Explore never loses or misdescribes what it found (issue 44), run as a
/// user runs it: `explore-planted explore` in a child, Ctrl-C sent to it,
/// and the lines its report says to copy copied.
@Suite(.timeLimit(.minutes(2)))
struct ExploreKeepsEndToEndTests {
    let scratch = ScratchDirectory("explore-keeps")

    static func explore(_ arguments: [String]) async throws -> KarcRun {
        try await KarcRun.run(["explore"] + arguments, binary: ExploreEndToEndTests.planted)
    }

    /// The words of a line the report says to type (no word of these has a space: the scratch path has none).
    static func words(_ line: String) -> [String] {
        line.split(separator: " ").map(String.init)
    }

    @Test func aSecondExplorationsCrashDoesNotReplaceTheFirstsScript() async throws {
        let first = try await Self.explore(["--bug", "crash", "--seed", "1", "--out", scratch.path, "--json"])
        let firstFile = try #require(try ExploreEndToEndTests.failure(of: first)["file"] as? String)
        let firstText = try String(contentsOfFile: firstFile, encoding: .utf8)
        let second = try await Self.explore(["--bug", "crash", "--seed", "2", "--out", scratch.path, "--json"])
        let secondFile = try #require(try ExploreEndToEndTests.failure(of: second)["file"] as? String)
        #expect(secondFile != firstFile)
        #expect(try String(contentsOfFile: firstFile, encoding: .utf8) == firstText)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".karc") }.count == 2)
    }

    @Test func theReplayLineReplaysTheScriptAndTheRepeatLineFindsTheSameFailure() async throws {
        let run = try await Self.explore(["--bug", "interleave", "--seed", "1", "--runs", "30", "--steps", "20", "--out", scratch.path])
        #expect(run.status == 1)
        let replayLine = try #require(run.stdout.split(separator: "\n").first { $0.contains("replay it with `") })
        let replay = String(try #require(replayLine.split(separator: "`").dropFirst().first))
        #expect(replay.hasPrefix("explore-planted --bug interleave \(scratch.path)/invariant-units-never-negative-of-stock-"))
        let repeatLine = try #require(run.stdout.split(separator: "\n").last)
        let repeatCommand = "explore-planted explore --bug interleave --seed 1 --runs 30 --steps 20"
        #expect(repeatLine == "repeat with `\(repeatCommand)`")
        // The script says both too.
        let file = Self.words(replay).last ?? ""
        let script = try String(contentsOfFile: file, encoding: .utf8)
        #expect(script.contains("\n# replay it: \(replay)\n"))
        #expect(script.contains("\n# repeat the exploration: \(repeatCommand)\n"))
        // Copied as they are (the program's name resolved), they replay the failure and find it again.
        let replayed = try await KarcRun.run(Array(Self.words(replay).dropFirst()), binary: ExploreEndToEndTests.planted)
        #expect(replayed.status == 1)
        #expect(replayed.stderr.contains("invariant 'units never negative' of stock does not hold after orders.ship"), "\(replayed.stderr)")
        let again = ScratchDirectory("explore-keeps-again")
        let repeated = try await KarcRun.run(
            Array(Self.words(repeatCommand).dropFirst()) + ["--out", again.path], binary: ExploreEndToEndTests.planted)
        #expect(repeated.status == 1)
        // The same run fails after the same commands, shrunk to the same ones.
        func found(_ output: String) -> [Substring] {
            output.split(separator: "\n").filter { $0.hasPrefix("    ") || $0.hasPrefix("  run ") }.map { $0.prefix { $0 != "(" } }
        }
        #expect(found(repeated.stdout) == found(run.stdout))
        #expect(!found(run.stdout).isEmpty)
    }

    @Test func aFailOnTypeNoCommandThrewIsAnErrorThatNamesTheTypesThrown() async throws {
        let run = try await Self.explore(["--bug", "error", "--seed", "1", "--runs", "5", "--fail-on", "SafeJamed", "--out", scratch.path])
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "error: --fail-on SafeJamed: no command threw an error of that type (250 commands sent), so nothing was checked against it; "
                    + "did you mean 'SafeJammed'? The errors they threw: SafeJammed, WrongCode"), "\(run.stderr)")
        let notAType = try await Self.explore(["--bug", "error", "--fail-on", "Safe Jammed", "--out", scratch.path])
        #expect(notAType.status == 64)
        #expect(notAType.stderr.contains("--fail-on: 'Safe Jammed' is not the name of a Swift type"))
        let known = try await Self.explore(["--bug", "error", "--seed", "1", "--runs", "5", "--fail-on", "SafeJammed", "--out", scratch.path])
        #expect(known.status == 1)
        #expect(!known.stderr.contains("--fail-on"))
    }

    @Test func ctrlCWhileShrinkingAHangWritesWhatWasShrunkAndTheReportAndExits130() async throws {
        let out = scratch.file("failures")
        let explore = try ChildProcess.start(
            [ExploreEndToEndTests.planted, "explore", "--bug", "hang", "--seed", "1", "--timeout", "2s", "--out", out])
        #expect(await explore.until { $0.stdout.contains("\nshrinking run ") }, "\(explore.stdout)\(explore.stderr)")
        explore.send(SIGINT)
        #expect(await explore.ending() == .exited(130), "\(explore.stdout)\(explore.stderr)")
        #expect(explore.stdout.contains("\nfailure: deep.dive did not answer within 2s\n"))
        #expect(explore.stdout.contains("stopped: interrupted (Ctrl-C) while shrinking run "))
        #expect(explore.stdout.contains("\nexplored "))
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        let name = try #require(files.first { $0.hasPrefix("timeout-deep-dive-") && $0.hasSuffix(".karc") }, "\(files)")
        let script = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
        #expect(script.contains("not shrunk (Ctrl-C came before the shrink began)") || script.contains("partly shrunk to "), "\(script)")
        #expect(script.hasSuffix("deep.dive\n"))
        #expect(!explore.stderr.contains("commands left"), "no progress line when standard error is no terminal")
    }

    /// At a terminal Ctrl-C reaches the explorer alone (its worker has a process group of its
    /// own) and ends the worker: the interrupt, not a crash, even when it lands as a worker
    /// starts; and the shrink of a hang says how far it got while it goes.
    @Test(.enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
    func atATerminalTheShrinkShowsItsProgressAndCtrlCKeepsWhatItShrank() async throws {
        let out = scratch.file("failures")
        try await Tmux.session { tmux in
            try await tmux.start()
            await tmux.send(text: "export NO_COLOR=1 PS1='$ '; clear", enter: true)
            await tmux.send(
                text: "\(ExploreEndToEndTests.planted) explore --bug hang --seed 1 --timeout 2s --out \(out); echo EXIT=$?", enter: true)
            await tmux.expect("no progress while shrinking") { pane in
                pane.split(separator: "\n").contains { $0.hasPrefix("shrinking run ") && $0.hasSuffix(" commands left") }
            }
            await tmux.send(keys: "C-c")
            await tmux.expect { $0.contains("EXIT=130") }
            let pane = await tmux.capture()
            #expect(pane.contains("stopped: interrupted (Ctrl-C) while shrinking run "), "\(pane)")
            #expect(!pane.contains("SIGINT"), "the worker the explorer ended is no crash: \(pane)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.contains { $0.hasPrefix("timeout-deep-dive-") }, "\(files)")
    }

    @Test(arguments: [(SIGINT, "Ctrl-C"), (SIGTERM, "SIGTERM")] as [(Int32, String)])
    func aSignalDuringTheRunsTellsTheSummaryAndExitsWithItsStatus(_ signal: Int32, _ named: String) async throws {
        let explore = try ChildProcess.start(
            [ExploreEndToEndTests.planted, "explore", "--bug", "error", "--seed", "1", "--runs", "1000000", "--out", scratch.path])
        #expect(await explore.until { $0.stdout.contains("explore: seed 1, 1000000 runs") })
        explore.send(signal)
        #expect(await explore.ending() == .exited(128 + signal), "\(explore.stdout)\(explore.stderr)")
        #expect(explore.stdout.contains("stopped: interrupted (\(named)) "), "\(explore.stdout)")
        #expect(explore.stdout.contains("\nexplored "))
    }
}
