import Foundation
import KarcLanguage
import KarcRendering

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
        /// How to replay a script (`karc FILE`), for the report.
        package var replayCommand = "karc"
        package var json = false
        /// Replays a shrink may take.
        package var shrinkBudget = 2_000
        /// Write each failure as a Swift test too, made this way (`--export-test`).
        package var testExport: TestExportOptions?
        /// How far the clock moves between commands (what an exported test advances).
        package var advance: Duration = .seconds(1)
        /// The cluster's commands, to write a failure's as Swift.
        package var catalog: Catalog?
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
    }

    let generator: CommandGenerator
    let backend: any ExploreBackend
    let settings: Settings
    let sink: OutputSink
    /// Told every tenth of a second at most: runs done, commands sent, failures, rate.
    let progress: (@Sendable (String) -> Void)?

    package init(
        generator: CommandGenerator, backend: any ExploreBackend, settings: Settings, sink: OutputSink,
        progress: (@Sendable (String) -> Void)? = nil
    ) {
        self.generator = generator
        self.backend = backend
        self.settings = settings
        self.sink = sink
        self.progress = progress
    }

    /// Explores, printing as it goes; the report.
    package func run() async throws(ExploreError) -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        var report = Report()
        var lastProgress = start
        if settings.json {
            sink.write(JSONLine.write(["kind": "explore", "seed": "\(settings.seed)", "runs": settings.runs, "steps": settings.steps]))
        } else {
            sink.write("explore: seed \(settings.seed), \(settings.runs) runs of up to \(settings.steps) commands")
        }
        sink.flush()
        var kindsFound: Set<ExploreFailure.Kind> = []
        runs: for run in 0..<settings.runs {
            if let limit = settings.timeLimit, clock.now - start >= limit {
                report.stoppedEarly = "the time limit (\(ShellDuration.describe(limit))) was reached after \(run) runs"
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
                case .refused: refused += 1
                case .failed(let found): failure = found
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
            guard !kindsFound.contains(failure.kind) else { continue }
            kindsFound.insert(failure.kind)
            progress?("shrinking \(sent.count) commands…")
            let found = await shrink(sent, failure: failure, run: run)
            report.found.append(found)
            tell(found)
            sink.flush()
            if !settings.keepGoing { break runs }
        }
        report.elapsed = clock.now - start
        progress?("")
        summarize(report)
        await backend.close()
        return report
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func progressLine(_ report: Report, elapsed: Duration) -> String {
        let seconds = Self.seconds(elapsed)
        let rate = seconds > 0 ? Int(Double(report.commands) / seconds) : 0
        return "run \(report.runs)/\(settings.runs), \(report.commands) commands, \(report.found.count) failures, \(rate) commands/s"
    }

    /// The failing run's commands shrunk, and written as a script.
    private func shrink(_ sent: [ExploreCommand], failure: ExploreFailure, run: Int) async -> Found {
        let backend = self.backend
        let shrinker = Shrinker(budget: settings.shrinkBudget) { commands in
            await Self.replay(commands, on: backend)
        }
        let clock = ContinuousClock()
        let start = clock.now
        var found: Found
        if let again = await Self.replay(sent, on: backend), again.failure == failure {
            let shrunk = await shrinker.shrink(Array(again.sent.prefix(again.at + 1)), failing: failure, refused: again.refused)
            found = Found(
                failure: shrunk.failure, run: run, original: sent.count, commands: shrunk.commands, replays: shrunk.replays + 1,
                shrinkTime: clock.now - start)
            found.refused = shrunk.refused
        } else {
            found = Found(failure: failure, run: run, original: sent.count, commands: sent, replays: 1, shrinkTime: clock.now - start)
            found.reproduced = false
        }
        // A crash is replayed once more with its backtrace written: the runtime's message and where it was.
        if found.reproduced, ["crash", "exit"].contains(found.failure.kindName) {
            await backend.setBacktraces(true)
            if let explained = await Self.replay(found.commands, on: backend), explained.failure == found.failure {
                found.failure = explained.failure
            }
            await backend.setBacktraces(false)
        }
        // What follows is written on the terminal's line the progress line holds.
        progress?("")
        if let directory = settings.output {
            let path = (directory as NSString).appendingPathComponent(found.failure.slug + ".karc")
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try WholeFile.write(script(found), to: path)
                found.file = path
                if let options = settings.testExport, let catalog = settings.catalog {
                    let testPath = (directory as NSString).appendingPathComponent(found.failure.slug + ".swift")
                    try WholeFile.write(try testSource(found, options: options, catalog: catalog), to: testPath)
                    found.testFile = testPath
                }
            } catch let error as HostError {
                sink.writeError("error: \(error.message)")
            } catch let error as TestExport.Unexportable {
                sink.writeError("error: cannot write the failure as a test: \(error.message)")
            } catch {
                sink.writeError("error: cannot write \(path): \(error.localizedDescription)")
            }
        }
        return found
    }

    /// Runs `commands` on a fresh cluster, each reused value taken from
    /// this replay's results: where and how they failed, if they did, and
    /// the commands as sent.
    static func replay(_ commands: [ExploreCommand], on backend: any ExploreBackend) async -> Shrinker.Replayed? {
        do { try await backend.startRun() } catch { return nil }
        var harvests: [Int: Harvest] = [:]
        var sent: [ExploreCommand] = []
        var refused: Set<Int> = []
        for (index, command) in commands.enumerated() {
            let resolved = command.resolved(harvests)
            sent.append(resolved)
            switch await backend.step(resolved.line) {
            case .ran(let harvest): harvests[command.id] = harvest
            case .refused: refused.insert(index)
            case .failed(let failure): return Shrinker.Replayed(failure: failure, at: index, sent: sent + commands[(index + 1)...], refused: refused)
            }
        }
        return nil
    }
}
