import Foundation
import KarcAsync
import KarcShellTrellis
import KarcSynchronization
import TestSupport
import Testing
import Trellis

@testable import KarcExplore
@testable import KarcOutput
@testable import KarcSession
@testable import KarcShell

/// Explore never loses or misdescribes what it found (issue 44): each
/// failure's script has a name of its own and replaces no other, Ctrl-C
/// keeps what was found so far, a shrink says how far it got on a
/// terminal. In this process, on ExploreTests' clusters.
@Suite(.timeLimit(.minutes(1)))
struct ExploreKeepsWhatItFoundTests {
    let scratch = ScratchDirectory("explore-keeps")

    /// `deep` whose invariant breaks at the second step: a fast failure, shrunk to two commands.
    static func shallow() async throws -> any ShellCluster {
        ClusterShell(
            name: "deep", cluster: try await ExploreTests.deepCluster(),
            invariants: [Invariant("shallow") { (depth: ExploreTests.Depth) in depth.level < 2 }])
    }

    /// An exploration of `make`'s clusters writing to the scratch directory, as the CLI makes one.
    func explorer(
        _ make: @escaping @Sendable () async throws -> any ShellCluster, seed: UInt64 = 1, timeout: Duration = .seconds(5),
        backend wrap: (InProcessExplore) -> any ExploreBackend = { $0 }, interrupter: Interrupter = Interrupter(),
        progress: (@Sendable (String) -> Void)? = nil
    ) async throws -> (Explorer, OutputSink) {
        var step = ExploreStepRunner.Settings()
        step.timeout = timeout
        let catalogCluster = try await make()
        let generator = try CommandGenerator(catalog: catalogCluster.catalog)
        await catalogCluster.shutDown()
        var settings = Explorer.Settings()
        settings.seed = seed
        settings.output = scratch.path
        let sink = OutputSink(capturing: ())
        let backend = wrap(InProcessExplore(settings: step) { _ in try await make() })
        return (Explorer(generator: generator, backend: backend, settings: settings, sink: sink, progress: progress, interrupter: interrupter), sink)
    }

    func scripts() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".karc") }.sorted()
    }

    // MARK: A name of its own

    @Test func aScriptIsNamedAfterWhatFailedAndAHashOfItsCommands() {
        let crash = ExploreFailure(.crash(signal: 4), "the process crashed (SIGILL)")
        let name = ExploreFailureFile.baseName(crash, commands: ["vault.a", "vault.b", "vault.c"])
        #expect(name == "crash-sigill-vault-c-" + ExploreFailureFile.hash(["vault.a", "vault.b", "vault.c"]))
        #expect(ExploreFailureFile.hash(["vault.a", "vault.b", "vault.c"]).count == 8)
        #expect(name != ExploreFailureFile.baseName(crash, commands: ["vault.a", "vault.c"]), "another crash on SIGILL gets another name")
        let invariant = ExploreFailure(.invariant("'shallow' of deep"), "…")
        #expect(ExploreFailureFile.baseName(invariant, commands: ["deep.step x=1"]).hasPrefix("invariant-shallow-of-deep-"))
        let hang = ExploreFailure(.timeout(command: "deep.dive"), "…")
        #expect(ExploreFailureFile.baseName(hang, commands: ["deep.dive"]).hasPrefix("timeout-deep-dive-"))
        let error = ExploreFailure(.error(type: "SafeJammed"), "…")
        #expect(ExploreFailureFile.baseName(error, commands: ["safe.open code=1"]).hasPrefix("error-safejammed-safe-open-"))
    }

    @Test func aFileThatHoldsSomethingElseIsNeverReplacedAndTheSameTextIsNotWrittenTwice() throws {
        let taken = scratch.file("crash-sigill-x.karc")
        try "# a script the user keeps\n".write(toFile: taken, atomically: true, encoding: .utf8)
        let written = try ExploreFailureFile.write([("karc", { _ in "vault.a\n" })], base: "crash-sigill-x", in: scratch.path)
        #expect(written == [scratch.file("crash-sigill-x-2.karc")])
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "# a script the user keeps\n")
        let again = try ExploreFailureFile.write([("karc", { _ in "vault.a\n" })], base: "crash-sigill-x", in: scratch.path)
        #expect(again == written)
        #expect(try scripts() == ["crash-sigill-x-2.karc", "crash-sigill-x.karc"])
    }

    @Test func twoExplorationsThatShrinkToTheSameCommandsKeepBothScripts() async throws {
        let first = try await explorer(Self.shallow, seed: 1).0.run()
        let firstFile = try #require(first.found.first?.file)
        let firstText = try String(contentsOfFile: firstFile, encoding: .utf8)
        let second = try await explorer(Self.shallow, seed: 2).0.run()
        let secondFile = try #require(second.found.first?.file)
        #expect(first.found.first?.commands.map(\.line) == second.found.first?.commands.map(\.line))
        #expect(secondFile != firstFile, "the second run's script has a name of its own")
        #expect(secondFile.hasSuffix("-2.karc"))
        #expect(try String(contentsOfFile: firstFile, encoding: .utf8) == firstText, "the first run's script is as it was")
        // The same exploration again writes the same text: to the same file, not a third.
        let third = try await explorer(Self.shallow, seed: 1).0.run()
        #expect(third.found.first?.file == firstFile)
        #expect(try scripts().count == 2)
    }

    // MARK: Lines to copy

    @Test func theAppsArgumentsAreTakenApartFromExploresForTheReplayAndRepeatLines() {
        let line = ExploreCommandLine([
            "--bug", "interleave", "--seed", "1", "--runs=30", "--out", "my failures", "--json", "--targets=stock,orders",
            "--fail-on", "SafeJammed", "--keep-going", "--time-limit", "10s", "--tick", "2s",
        ])
        #expect(line.app == ["--bug", "interleave", "--tick", "2s"])
        #expect(line.generating == ["--targets=stock,orders", "--fail-on", "SafeJammed", "--keep-going"])
        #expect(line.replay(name: "explore-planted") == "explore-planted --bug interleave --tick 2s")
        #expect(
            line.repeatCommand(name: "explore-planted", seed: 1, runs: 30, steps: 50)
                == "explore-planted explore --bug interleave --tick 2s --seed 1 --runs 30 --steps 50 --targets=stock,orders --fail-on SafeJammed --keep-going"
        )
        // Every option and flag of explore's is known as one: none is taken for the app's.
        #expect(ExploreCommandLine.options.isSuperset(of: ["--runs", "--steps", "--seed", "--fail-on", "--test-factory", "--time-limit", "--out"]))
        #expect(ExploreCommandLine.flags.isSuperset(of: ["--json", "--keep-going", "--export-test", "--in-process", "--worker"]))
        #expect(ShellWords.quote("my failures/it's.karc") == #"'my failures/it'\''s.karc'"#)
    }

    @Test func theWorkerTellsTheTypeOfAnErrorItWasRefusedWith() {
        let refused = ExploreStepResult.refused("safe.open failed: WrongCode()", errorType: "WrongCode")
        #expect(ExploreWire.answer(ExploreWire.line(refused)) == .step(refused))
        #expect(ExploreWire.answer("refused\tno such field") == .step(.refused("no such field")))
    }

    // MARK: Ctrl-C

    @Test func ctrlCWhileShrinkingWritesThePartlyShrunkSequenceAndSaysSo() async throws {
        let interrupter = Interrupter()
        // Ctrl-C as the third replay after the failure starts: the replay to confirm it and one shrink replay are done.
        let (explorer, sink) = try await explorer(
            Self.shallow, backend: { Interrupting($0, interrupter: interrupter, afterFailure: 3) }, interrupter: interrupter)
        let report = try await explorer.run()
        #expect(report.interrupted)
        let found = try #require(report.found.first)
        #expect(found.interrupted)
        #expect(found.replays == 3)
        let file = try #require(found.file)
        let script = try String(contentsOfFile: file, encoding: .utf8)
        #expect(script.contains(", partly shrunk to \(found.commands.count) (Ctrl-C stopped the shrink; it may shrink further)\n"))
        #expect(script.hasSuffix(found.commands.map { $0.line + "\n" }.joined()))
        // What was written still fails the same way.
        let replayed = await Explorer.replay(
            found.commands, on: InProcessExplore(settings: .init()) { _ in try await Self.shallow() }, unless: Interrupter())
        #expect(replayed?.failure.kind == .invariant("'shallow' of deep"))
        let output = String(decoding: sink.takeCaptured(), as: UTF8.self)
        #expect(output.contains("stopped: interrupted (Ctrl-C) while shrinking run \(found.run + 1)'s failure\n"))
        #expect(output.contains("explored \(report.runs) run\(report.runs == 1 ? "" : "s"), "))
    }

    @Test func ctrlCBeforeTheShrinkBeganWritesTheSequenceAsTheRunSentIt() async throws {
        let interrupter = Interrupter()
        let (explorer, _) = try await explorer(
            Self.shallow, backend: { Interrupting($0, interrupter: interrupter, afterFailure: 1) }, interrupter: interrupter)
        let found = try #require(try await explorer.run().found.first)
        #expect(found.interrupted)
        #expect(found.reproduced, "an interrupted replay is not taken for a cluster that is not deterministic")
        #expect(found.commands.count == found.original)
        let script = try String(contentsOfFile: try #require(found.file), encoding: .utf8)
        #expect(script.contains(": \(found.original) commands, not shrunk (Ctrl-C came before the shrink began)\n"))
    }

    @Test func ctrlCDuringTheRunsStopsThemAndTellsTheSummary() async throws {
        let interrupter = Interrupter()
        let (explorer, sink) = try await explorer(
            ExploreTests.everything, backend: { Interrupting($0, interrupter: interrupter, atRun: 3) }, interrupter: interrupter)
        let report = try await explorer.run()
        #expect(report.interrupted)
        #expect(report.runs == 3)
        #expect(report.found.isEmpty)
        let output = String(decoding: sink.takeCaptured(), as: UTF8.self)
        #expect(output.contains("stopped: interrupted (Ctrl-C) after 3 runs\nexplored 3 runs, "))
    }

    // MARK: Shrinking's progress

    @Test func onATerminalAShrinkSaysItsReplaysAndTheCommandsLeft() async throws {
        let told = KarcMutex<[String]>([])
        let (explorer, _) = try await explorer(
            ExploreTests.deep, timeout: .milliseconds(200), progress: { line in told.withLock { $0.append(line) } })
        let found = try #require(try await explorer.run().found.first)
        let shrinking = told.withLock { $0 }.filter { $0.hasPrefix("shrinking ") }
        let run = found.run + 1
        #expect(shrinking.first == "shrinking run \(run)'s failure: 0 replays, \(found.original) of \(found.original) commands left")
        // The replay that confirms a hang takes its timeout: the first replay of the shrink is told.
        #expect(
            shrinking.contains { $0.hasPrefix("shrinking run \(run)'s failure: 1 replay, ") && $0.hasSuffix(" of \(found.original) commands left") })
        #expect(told.withLock { $0.last } == "", "the line is cleared at the end")
    }
}

/// Sequences in this process, with Ctrl-C coming as the `atRun`th cluster
/// starts, or the `afterFailure`th after a command failed (a replay).
private final class Interrupting: ExploreBackend {
    private let inner: InProcessExplore
    private let interrupter: Interrupter
    private let atRun: Int?
    private let afterFailure: Int?
    private let counts = KarcMutex((started: 0, sinceFailure: 0, failed: false))

    init(_ inner: InProcessExplore, interrupter: Interrupter, atRun: Int? = nil, afterFailure: Int? = nil) {
        (self.inner, self.interrupter, self.atRun, self.afterFailure) = (inner, interrupter, atRun, afterFailure)
    }

    func startRun() async throws(ExploreError) {
        let due = counts.withLock { c -> Bool in
            c.started += 1
            if c.failed { c.sinceFailure += 1 }
            return c.started == atRun || (c.failed && c.sinceFailure == afterFailure)
        }
        try await inner.startRun()
        if due { interrupter.trigger() }
    }

    func step(_ line: String) async -> ExploreStepResult {
        let result = await inner.step(line)
        if case .failed = result { counts.withLock { $0.failed = true } }
        return result
    }

    func close() async { await inner.close() }
}
