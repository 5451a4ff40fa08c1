import Foundation
import Testing

/// The shell on piped scripts, `-e` commands and script files: the readable
/// transcript, the same facts as JSON lines, and failures with their place.
@Suite(.timeLimit(.minutes(1))) struct ShellScriptTests {
    @Test func aScriptPrintsRepliesEventsAndStateDiffsInOrder() throws {
        let run = try KarcRun.run(["--echo"], input: """
            # a comment, then commands
            counter.increment value=41
            counter.increment
            tally.add amount=3
            tally.celebrate
            :state counter

            """)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout == """
            > # a comment, then commands
            > counter.increment value=41
            state  counter:
              - Counter(count: 0)
              + Counter(count: 41)
            > counter.increment
            state  counter:
              - Counter(count: 41)
              + Counter(count: 42)
            > tally.add amount=3
            reply  3
            event  tally: Added(count: 3)
            state  tally:
              - Tally(count: 0)
              + Tally(count: 3)
            > tally.celebrate
            reply  "🎉 3 reached"
            > :state counter
            state  counter: Counter(count: 42)

            """)
    }

    @Test func theSameScriptAsJSONLines() throws {
        let run = try KarcRun.run(["--json"], input: "counter.increment value=2\ntally.add\n:state tally\n")
        #expect(run.status == 0)
        let lines = run.jsonLines
        #expect(lines.count == 5)
        #expect(lines[0]["kind"] as? String == "state")
        #expect(lines[0]["target"] as? String == "counter")
        #expect(lines[0]["type"] as? String == "Counter")
        #expect((lines[0]["old"] as? [String: Int]) == ["count": 0])
        #expect((lines[0]["new"] as? [String: Int]) == ["count": 2])
        #expect(lines[0]["diff"] as? String == "- Counter(count: 0)\n+ Counter(count: 2)")
        #expect(lines[1]["kind"] as? String == "reply")
        #expect(lines[1]["value"] as? Int == 1)
        #expect(lines[2]["kind"] as? String == "event")
        #expect(lines[2]["source"] as? String == "tally")
        #expect(lines[2]["type"] as? String == "Added")
        #expect((lines[2]["value"] as? [String: Int]) == ["count": 1])
        #expect(lines[3]["kind"] as? String == "state")
        #expect(lines[4]["kind"] as? String == "snapshot")
        #expect((lines[4]["value"] as? [String: Int]) == ["count": 1])
    }

    @Test func theFirstFailureStopsTheScriptWithItsLineAndColumn() throws {
        let run = try KarcRun.run([], input: "counter.increment\ncounter.increment valeu=2\ncounter.increment\n")
        #expect(run.status == 1)
        #expect(run.stderr == "<stdin>:2:19: error: unknown field 'valeu' for increment; did you mean 'value'? Fields: value\n")
        #expect(run.stdout.components(separatedBy: "state  counter:").count == 2, "the third line never ran")
    }

    @Test func failuresAsJSONCarryLineColumnAndMessage() throws {
        let run = try KarcRun.run(["--json", "--keep-going"], input: "countr.increment\ncounter.increment value=two\ntally.celebrate\ncounter.increment\n")
        #expect(run.status == 1, "--keep-going still fails the run")
        let errors = run.jsonLines.filter { $0["kind"] as? String == "error" }
        #expect(errors.map { $0["line"] as? Int } == [1, 2, 3])
        #expect(errors.map { $0["column"] as? Int } == [1, 25, 7])
        #expect(errors[0]["message"] as? String == "unknown target 'countr'; did you mean 'counter'? Targets: counter, tally")
        #expect(errors[1]["message"] as? String == #"field 'value' expects Int, got "two""#)
        #expect((errors[2]["message"] as? String)?.hasPrefix("tally.celebrate failed: ") == true)
        #expect(run.jsonLines.last?["kind"] as? String == "state", "the last command still ran")
    }

    @Test func keepGoingRunsEverythingAndStillFails() throws {
        let run = try KarcRun.run(["--keep-going"], input: "nonsense\ncounter.increment\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("<stdin>:1:1: error: expected TARGET.COMMAND"))
        #expect(run.stdout.contains("+ Counter(count: 1)"))
    }

    @Test func dashECommandsRunInOrderAndQuitStops() throws {
        let run = try KarcRun.run(["-e", "counter.increment value=5", "-e", ":quit", "-e", "counter.increment"])
        #expect(run.status == 0)
        #expect(run.stdout == "state  counter:\n  - Counter(count: 0)\n  + Counter(count: 5)\n")
        let failing = try KarcRun.run(["-e", "counter.reset now=1"])
        #expect(failing.status == 1)
        #expect(failing.stderr == "-e:1:15: error: unknown field 'now' for reset (it takes no fields)\n")
    }

    @Test func aScriptFileNamesItselfInErrors() throws {
        let path = NSTemporaryDirectory() + "karc-\(UUID().uuidString).karc"
        try "counter.increment\n:sleep forever\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try KarcRun.run([path])
        #expect(run.status == 1)
        #expect(run.stderr == "\(path):2:8: error: expected a duration like 250ms, 2s, 1.5s or 1m (at most 24 hours), got 'forever'\n")
        let missing = try KarcRun.run(["/nonexistent/script.karc"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: no such script: /nonexistent/script.karc\n")
    }

    @Test func metaCommandsHelpAndComplainUsefully() throws {
        let run = try KarcRun.run(["--keep-going"], input: """
            :help
            :help counter.increment
            :hlep
            :events sometimes
            :timing on
            counter.increment
            :history 2

            """)
        #expect(run.status == 1)
        #expect(run.stdout.contains("  counter (store): increment, reset, increment-later\n  tally (model): add, clear, celebrate, add-slowly, check\n"))
        #expect(run.stdout.contains("counter.increment [value=Int, default 1]\n  value  Int  optional, default 1\n"))
        #expect(run.stdout.contains("time   "))
        #expect(run.stdout.contains("    1  ok     counter.increment\n"))
        #expect(run.stderr.contains("<stdin>:3:2: error: unknown meta command ':hlep'; did you mean ':help'?"))
        #expect(run.stderr.contains("<stdin>:4:9: error: expected on, off, only or mute after :events, got 'sometimes'"))
    }

    @Test func eventsCanBeMutedAndShownAgain() throws {
        let run = try KarcRun.run([], input: ":events mute Added\ntally.add\n:events on\ntally.add\n")
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "event  tally: Added").count == 2, "only the second add shows its event")
    }

    @Test func theShellWaitsForWorkThatGoesOnAfterTheSend() throws {
        let run = try KarcRun.run([], input: "tally.add-slowly amount=4 seconds=0.2\ntally.check minimum=4\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("event  tally: Added(count: 4)"))
        #expect(run.stdout.contains("reply  Result.success(4)"), "\(run.stdout)")
    }

    @Test func workOutlastingTheTimeoutFailsTheCommand() throws {
        let run = try KarcRun.run(["--timeout", "100ms"], input: "tally.add-slowly seconds=3\ncounter.increment\n")
        #expect(run.status == 1)
        #expect(run.stderr == "<stdin>:1:7: error: the cluster was still busy 100ms after tally.add-slowly (raise --timeout, or use :wait for timers)\n")
    }

    @Test func aFailureReplyFailsTheCommand() throws {
        let run = try KarcRun.run(["--json"], input: "tally.check minimum=1\n")
        #expect(run.status == 1)
        #expect(run.jsonLines.first?["message"] as? String == "tally.check replied with a failure: the tally is 0, below 1")
        #expect(run.jsonLines.first?["column"] as? Int == 7)
    }

    @Test func waitingForAnEventThatNeverComesTimesOut() throws {
        let run = try KarcRun.run([], input: ":wait Added 100ms\n")
        #expect(run.status == 1)
        #expect(run.stderr == "<stdin>:1:7: error: timed out after 100ms waiting for Added\n")
    }

    @Test func hostileInputGetsErrorsNotCrashes() throws {
        let huge = "counter.increment value=" + String(repeating: "9", count: 100_000)
        let nested = "counter.increment value=" + String(repeating: "[", count: 5_000)
        let binary = String(decoding: [0xFF, 0xFE, 0x00, 0x41] as [UInt8], as: UTF8.self)
        let run = try KarcRun.run(["--keep-going"], input: [huge, nested, binary, #"counter.increment {"value": "#, "\"unterminated"].joined(separator: "\n") + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 5)
        #expect(!run.stderr.contains("Fatal"))
    }
}
