import Foundation
import KarcAsync
import KarcLanguage
import KarcRendering
import KarcSession
import KarcSynchronization

/// What an exploration does with a failure: replays it once to see it
/// fail again, shrinks it, replays a crash once more for its backtrace,
/// and writes the script (and test) under a name of its own. Ctrl-C while
/// it does stops the shrink, and what failed so far is written all the same.
extension Explorer {
    /// The failing run's commands shrunk, and written as a script.
    func shrink(_ sent: [ExploreCommand], failure: ExploreFailure, run: Int) async -> Found {
        let backend = self.backend
        let interrupter = self.interrupter
        announce(sent.count, failure: failure, run: run)
        let clock = ContinuousClock()
        let start = clock.now
        let lastTold = KarcMutex(start)
        let progress = self.progress
        let original = sent.count
        let shrinker = Shrinker(
            budget: settings.shrinkBudget, stop: { interrupter.isTriggered },
            told: { replays, left in
                guard let progress else { return }
                let due = lastTold.withLock { last -> Bool in
                    guard clock.now - last >= .milliseconds(100) else { return false }
                    last = clock.now
                    return true
                }
                if due { progress(Self.shrinkProgress(run: run, original: original, replays: replays, left: left)) }
            }
        ) { commands in
            await Self.replay(commands, on: backend, unless: interrupter)
        }
        var found = Found(failure: failure, run: run, original: sent.count, commands: sent, replays: 1, shrinkTime: .zero)
        let again = await Self.replay(sent, on: backend, unless: interrupter)
        if interrupted {
            found.interrupted = true
        } else if let again, again.failure == failure {
            let shrunk = await shrinker.shrink(Array(again.sent.prefix(again.at + 1)), failing: failure, refused: again.refused)
            found.failure = shrunk.failure
            found.commands = shrunk.commands
            found.replays = shrunk.replays + 1
            found.refused = shrunk.refused
            found.interrupted = shrunk.stopped && interrupted
        } else {
            found.reproduced = false
        }
        found.shrinkTime = clock.now - start
        // A crash is replayed once more with its backtrace written: the runtime's message and where it was.
        if found.reproduced, !found.interrupted, ["crash", "exit"].contains(found.failure.kindName) {
            await backend.setBacktraces(true)
            if let explained = await Self.replay(found.commands, on: backend, unless: interrupter), explained.failure == found.failure {
                found.failure = explained.failure
            }
            await backend.setBacktraces(false)
        }
        // What follows is written on the terminal's line the progress line holds.
        progress?("")
        if let directory = settings.output { write(&found, in: directory) }
        return found
    }

    /// Says a failure was met and is being shrunk: a piped run's output
    /// says what it is doing for the seconds a shrink may take.
    private func announce(_ count: Int, failure: ExploreFailure, run: Int) {
        progress?("")
        if settings.json {
            sink.write(JSONLine.write(["kind": "shrinking", "run": run + 1, "commands": count, "failure": failure.kindName]))
        } else {
            sink.write(
                "shrinking run \(run + 1)'s \(Names.counted(count, "command")), which failed: \(failure.message); Ctrl-C keeps what is shrunk so far")
        }
        sink.flush()
        progress?(Self.shrinkProgress(run: run, original: count, replays: 0, left: count))
    }

    /// The terminal's line while shrinking.
    static func shrinkProgress(run: Int, original: Int, replays: Int, left: Int) -> String {
        "shrinking run \(run + 1)'s failure: \(replays) \(replays == 1 ? "replay" : "replays"), \(left) of \(original) commands left"
    }

    /// Writes `found`'s script (and test) under a name no other failure has.
    private func write(_ found: inout Found, in directory: String) {
        let base = ExploreFailureFile.baseName(found.failure, commands: found.commands.map(\.line))
        let shown = found
        var files: [ExploreFailureFile.Text] = [("karc", { self.script(shown, at: $0 + ".karc") })]
        if let options = settings.testExport, let catalog = settings.catalog {
            do {
                let source = try testSource(shown, options: options, catalog: catalog, name: TestExport.functionName(for: base))
                files.append(("swift", { _ in source }))
            } catch {
                sink.writeError("error: cannot write the failure as a test: \(error.message)")
            }
        }
        do {
            let paths = try ExploreFailureFile.write(files, base: base, in: directory)
            found.file = paths.first
            found.testFile = paths.dropFirst().first
        } catch {
            sink.writeError("error: \(error.message)")
        }
    }

    /// Runs `commands` on a fresh cluster, each reused value taken from
    /// this replay's results: where and how they failed, if they did, and
    /// the commands as sent. Nil too once Ctrl-C came.
    static func replay(_ commands: [ExploreCommand], on backend: any ExploreBackend, unless interrupter: Interrupter) async -> Shrinker.Replayed? {
        guard !interrupter.isTriggered else { return nil }
        do { try await backend.startRun() } catch { return nil }
        var harvests: [Int: Harvest] = [:]
        var sent: [ExploreCommand] = []
        var refused: Set<Int> = []
        for (index, command) in commands.enumerated() {
            let resolved = command.resolved(harvests)
            sent.append(resolved)
            let result = await backend.step(resolved.line)
            if case .failed(let failure) = result, isInterrupt(failure) { interrupter.trigger() }
            guard !interrupter.isTriggered else { return nil }
            switch result {
            case .ran(let harvest): harvests[command.id] = harvest
            case .refused: refused.insert(index)
            case .failed(let failure): return Shrinker.Replayed(failure: failure, at: index, sent: sent + commands[(index + 1)...], refused: refused)
            }
        }
        return nil
    }
}
