import Foundation
import KarcLanguage
import KarcRendering
import KarcSession

/// Explores a cluster: runs sequences of generated commands, each against
/// a fresh cluster, and shrinks the first that fails to the smallest
/// sequence that still fails the same way, written as a script.
///
/// ```
/// seed ─▶ run r's generator (SeededRandom.run(r, of: seed))
///          └─▶ CommandGenerator (catalog + ValuePool of earlier replies)
///                └─▶ ExploreBackend.step(line): ran, refused, or failed
///                      └─ failed ─▶ Shrinker (replays on fresh clusters)
///                                     └─▶ DIR/failure.karc, the report
/// ```
package struct Explorer: Sendable {
    package struct Settings: Sendable {
        package var runs = 100
        package var steps = 50
        package var seed: UInt64 = 0
        package var timeLimit: Duration?
        /// Where the scripts of failures go; nil: not written.
        package var output: String?
        /// Go on after a failure, to find failures of other kinds.
        package var keepGoing = false
        /// How to replay a script, the app's own arguments included
        /// (`explore-planted --bug interleave`), shell-quoted: the script's path follows.
        package var replayCommand = "karc"
        /// The command that repeats this exploration (the app's arguments and
        /// every flag that changes what is generated), shell-quoted; empty: `--seed S`.
        package var repeatCommand = ""
        package var json = false
        /// Replays a shrink may take.
        package var shrinkBudget = 2_000
        /// Write each failure as a Swift test too, made this way (`--export-test`).
        package var testExport: TestExportOptions?
        /// How far the clock moves between commands (what an exported test advances).
        package var advance: Duration = .seconds(1)
        /// The cluster's commands, to write a failure's as Swift.
        package var catalog: Catalog?
        /// The error types `--fail-on` names: one no command threw is said at the end.
        package var failOn: [String] = []
        /// What interrupted it, once something did (`Ctrl-C`, `SIGTERM`): the report says so.
        package var interruption: @Sendable () -> String = { "Ctrl-C" }
        package init() {}
    }

    /// A failure found, shrunk.
    package struct Found: Sendable {
        package var failure: ExploreFailure
        package var run: Int
        /// Commands the run had sent when it failed.
        package var original: Int
        package var commands: [ExploreCommand]
        package var replays: Int
        package var shrinkTime: Duration
        /// The script written, when one was.
        package var file: String?
        /// Whether the same commands failed the same way again on a fresh
        /// cluster; when not, the cluster is not deterministic and nothing was shrunk.
        package var reproduced = true
        /// Which of `commands` the cluster refused (they may throw in a test).
        package var refused: Set<Int> = []
        /// The test written, when `--export-test` asked for one.
        package var testFile: String?
        /// Ctrl-C came before the shrink was done: `commands` are the
        /// shortest that failed so far (all the run sent, when none shorter did yet).
        package var interrupted = false
    }

    /// What an exploration did.
    package struct Report: Sendable {
        package var runs = 0
        package var commands = 0
        package var refused = 0
        package var found: [Found] = []
        package var elapsed: Duration = .zero
        /// Why it stopped before `--runs`, if it did.
        package var stoppedEarly: String?
        /// Ctrl-C (SIGINT) ended it: what it had found is written and told all the same.
        package var interrupted = false
        /// The error types the cluster's commands threw, as refusals or failures.
        package var errorsThrown: Set<String> = []
        /// The `--fail-on` types no command threw, so never checked.
        package var failOnNeverThrown: [String] = []
    }

    let generator: CommandGenerator
    let backend: any ExploreBackend
    let settings: Settings
    let sink: OutputSink
    /// Told every tenth of a second at most: runs done, commands sent,
    /// failures, rate; while shrinking, the replays and the commands left.
    /// Nil when standard error is no terminal.
    let progress: (@Sendable (String) -> Void)?
    /// Ctrl-C: the exploration stops, and writes and tells what it has.
    let interrupter: Interrupter

    package init(
        generator: CommandGenerator, backend: any ExploreBackend, settings: Settings, sink: OutputSink,
        progress: (@Sendable (String) -> Void)? = nil, interrupter: Interrupter = Interrupter()
    ) {
        self.generator = generator
        self.backend = backend
        self.settings = settings
        self.sink = sink
        self.progress = progress
        self.interrupter = interrupter
    }

    /// Whether Ctrl-C came.
    var interrupted: Bool { interrupter.isTriggered }

    /// Explores, printing as it goes; the report.
    package func run() async throws(ExploreError) -> Report {
        let backend = self.backend
        // Ctrl-C ends the command in flight at once (its child killed): what was found is written within the signal's grace.
        let result = await interrupter.whileWaiting(onInterrupt: { backend.interrupt() }) { () async -> Result<Report, ExploreError> in
            do throws(ExploreError) { return .success(try await explore()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func explore() async throws(ExploreError) -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        var report = Report()
        var lastProgress = start
        if settings.json {
            sink.write(JSONLine.write(["kind": "explore", "seed": "\(settings.seed)", "runs": settings.runs, "steps": settings.steps]))
        } else {
            sink.write("explore: seed \(settings.seed), \(Names.counted(settings.runs, "run")) of up to \(Names.counted(settings.steps, "command"))")
        }
        sink.flush()
        var kindsFound: Set<ExploreFailure.Kind> = []
        runs: for run in 0..<settings.runs {
            if interrupted {
                report.stoppedEarly = "interrupted (\(settings.interruption())) after \(Names.counted(run, "run"))"
                break
            }
            if let limit = settings.timeLimit, clock.now - start >= limit {
                report.stoppedEarly = "the time limit (\(ShellDuration.describe(limit))) was reached after \(Names.counted(run, "run"))"
                break
            }
            var random = SeededRandom.run(run, of: settings.seed)
            var pool = ValuePool()
            var sent: [ExploreCommand] = []
            var refused = 0
            do {
                try await backend.startRun()
            } catch {
                await backend.close()
                // The child Ctrl-C ended cannot start a run: that is the interrupt, not a cluster that does not start.
                if interrupted { break runs }
                throw error
            }
            report.runs += 1
            var failure: ExploreFailure?
            for step in 0..<settings.steps {
                let command = generator.next(&random, pool: pool, id: step)
                sent.append(command)
                report.commands += 1
                let result = await backend.step(command.line)
                switch result {
                case .ran(let harvest): pool.merge(harvest, from: command.id)
                case .refused(_, let type):
                    refused += 1
                    if let type { report.errorsThrown.insert(type) }
                case .failed(let found): failure = found
                }
                if Self.isInterrupt(failure) { interrupter.trigger() }
                // What a step says once Ctrl-C came may be the interrupt itself (its child killed): not a failure.
                if interrupted {
                    failure = nil
                    break
                }
                if failure != nil { break }
                if let progress, clock.now - lastProgress >= .milliseconds(100) {
                    lastProgress = clock.now
                    progress(progressLine(report, elapsed: clock.now - start))
                }
            }
            report.refused += refused
            if settings.json {
                sink.write(
                    JSONLine.write([
                        "kind": "run", "run": run + 1, "commands": sent.count, "refused": refused, "failed": failure != nil,
                    ]))
            }
            guard let failure else { continue }
            if case .error(let type) = failure.kind { report.errorsThrown.insert(type) }
            guard !kindsFound.contains(failure.kind) else { continue }
            kindsFound.insert(failure.kind)
            let found = await shrink(sent, failure: failure, run: run)
            report.found.append(found)
            tell(found)
            sink.flush()
            if found.interrupted { report.stoppedEarly = "interrupted (\(settings.interruption())) while shrinking run \(run + 1)'s failure" }
            if !settings.keepGoing || found.interrupted { break runs }
        }
        report.elapsed = clock.now - start
        report.interrupted = interrupted
        if report.interrupted, report.stoppedEarly == nil { report.stoppedEarly = "interrupted (\(settings.interruption())) in run \(report.runs)" }
        report.failOnNeverThrown = settings.failOn.filter { name in
            !report.errorsThrown.contains { ExploreStepRunner.Settings.errorType($0, isNamedBy: name) }
        }
        progress?("")
        summarize(report)
        await backend.close()
        return report
    }

    /// A child that SIGINT ended: someone stopped the worker itself (a
    /// terminal's Ctrl-C does not reach it: it has a process group of its
    /// own), which ends the exploration as Ctrl-C does.
    static func isInterrupt(_ failure: ExploreFailure?) -> Bool {
        if case .crash(let signal)? = failure?.kind { return signal == SIGINT }
        return false
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func progressLine(_ report: Report, elapsed: Duration) -> String {
        let seconds = Self.seconds(elapsed)
        let rate = seconds > 0 ? Int(Double(report.commands) / seconds) : 0
        return
            "run \(report.runs)/\(settings.runs), \(Names.counted(report.commands, "command")), \(Names.counted(report.found.count, "failure")), \(rate) commands/s"
    }
}
