import Foundation
import TestSupport
import Testing

/// A script a signal ends ends as shells do: 130 for Ctrl-C (once or
/// twice), 143 for SIGTERM, 129 for SIGHUP, never by the signal's default
/// action, with its output whole and its `--record` file complete.
@Suite(.timeLimit(.minutes(1)))
struct ScriptSignalTests {
    let scratch = ScratchDirectory("karc-signals")

    /// Starts `karc` on a script that increments the counter, then sleeps,
    /// and returns once the first increment was printed.
    func sleepingScript(_ extra: [String] = []) async throws -> ChildProcess.Running {
        let script = scratch.file("script.karc")
        try "counter.increment\n:sleep 30s\ncounter.increment value=100\n".write(toFile: script, atomically: true, encoding: .utf8)
        let karc = try ChildProcess.start([KarcRun.binaryPath, "--fresh", "--no-color", "--state-dir", scratch.file()] + extra + [script])
        #expect(await karc.until { $0.stdout.contains("count: 1") }, "the script never ran: \(karc.stderr)")
        return karc
    }

    @Test(
        arguments: [
            ([SIGINT], [130]), ([SIGTERM], [143]), ([SIGHUP], [129]),
            // A second signal while the first is being handled: the script may have ended by then, or not.
            ([SIGINT, SIGINT], [130]), ([SIGINT, SIGTERM], [130, 143]),
        ] as [([Int32], [Int32])])
    func aSignalEndsTheScriptWithItsStatus(_ signals: [Int32], _ statuses: [Int32]) async throws {
        let karc = try await sleepingScript()
        for signal in signals { karc.send(signal) }
        let ending = await karc.ending()
        #expect(statuses.map { .exited($0) }.contains(ending), "\(ending)")
        #expect(!karc.stdout.contains("count: 100"), "the script went on after the signal")
        // One signal ends the running command (the sleep, or the next one before it starts), and the script with it.
        if signals.count == 1 {
            #expect(karc.stderr.contains("script.karc:2:") && karc.stderr.hasSuffix(" error: interrupted\n"), "\(karc.stderr)")
        }
    }

    @Test func ctrlCStopsACheckWithItsStatus() async throws {
        let quick = scratch.file("a-quick.karc")
        let slow = scratch.file("b-slow.karc")
        try "counter.increment\n".write(toFile: quick, atomically: true, encoding: .utf8)
        try ":sleep 30s\n".write(toFile: slow, atomically: true, encoding: .utf8)
        let karc = try ChildProcess.start([KarcRun.binaryPath, "check", "--update", quick, slow])
        #expect(await karc.until { $0.stdout.contains("updated \(quick)") }, "\(karc.stderr)")
        karc.send(SIGINT)
        #expect(await karc.ending() == .exited(130))
        // Wound down within the signal's grace (5 s), it says why; past it (a slow build, a loaded
        // machine) the process ends itself with the same status, its output whole.
        let said = "error: interrupted while checking \(slow)\nerror: stopped before the rest of the transcripts\n"
        #expect(karc.stderr.isEmpty || karc.stderr.contains(said), "\(karc.stderr)")
    }

    @Test func aScriptEndedMidOutputLeavesEveryJSONLineWholeAndItsRecordComplete() async throws {
        let script = scratch.file("long.karc")
        let record = scratch.file("record.karc")
        try String(repeating: "counter.increment\n", count: 300_000).write(toFile: script, atomically: true, encoding: .utf8)
        let karc = try ChildProcess.start(
            [KarcRun.binaryPath, "--fresh", "--json", "--state-dir", scratch.file(), "--record", record, script])
        #expect(await karc.until { $0.stdout.count > 100_000 })
        karc.send(SIGTERM)
        #expect(await karc.ending() == .exited(143))
        let lines = karc.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the output ends with a whole line")
        for line in lines.dropLast() {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "a cut JSON line: \(line.prefix(200))")
        }
        let recorded = try String(contentsOfFile: record, encoding: .utf8)
        #expect(recorded.hasSuffix("\n"))
        #expect(recorded.split(separator: "\n").dropFirst().allSatisfy { $0 == "counter.increment" })
    }
}
