import Foundation
import Testing

/// The shell on piped scripts, `-e` commands and script files, against the
/// demo cluster: the readable transcript, the same facts as JSON lines, and
/// failures with their place.
@Suite(.timeLimit(.minutes(1))) struct ShellScriptTests {
    static let register = "account.register user-email=jill@example.com user-password=s3cret!"

    @Test func aScriptPrintsRepliesEventsAndStateDiffsInOrder() async throws {
        let run = try await KarcRun.run(
            ["--echo"],
            input: """
                # a comment, then commands
                counter.increment value=41
                counter.increment-by-three
                \(Self.register)
                :state counter

                """)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(
            run.stdout == """
                > # a comment, then commands
                > counter.increment value=41
                state  counter:
                  - CounterStore.State(count: 0)
                  + CounterStore.State(count: 41)
                > counter.increment-by-three
                state  counter:
                  - CounterStore.State(count: 41)
                  + CounterStore.State(count: 44)
                > \(Self.register)
                reply  Result.success(
                         Account(email: "jill@example.com")
                       )
                event  account: UpdatedAccount(
                                  account: Account(email: "jill@example.com")
                                )
                state  account:
                  - AccountState(account: nil)
                  + AccountState(
                  +   account: Account(email: "jill@example.com")
                  + )
                > :state counter
                state  counter: CounterStore.State(count: 44)

                """)
    }

    @Test func theSameFactsAsJSONLines() async throws {
        let run = try await KarcRun.run(["--json", "--json-states"], input: "counter.increment value=2\n\(Self.register)\n:state account\n")
        #expect(run.status == 0)
        let lines = run.jsonLines
        // Each line carries the number of the command that printed it, and each command ends with a `done` line.
        #expect(lines.map { $0["kind"] as? String } == ["state", "done", "reply", "event", "state", "done", "snapshot", "done"])
        #expect(lines.map { $0["seq"] as? Int } == [1, 1, 2, 2, 2, 2, 3, 3])
        #expect(lines.filter { $0["kind"] as? String == "done" }.map { $0["outcome"] as? String } == ["ok", "ok", "ok"])
        let facts = lines.filter { $0["kind"] as? String != "done" }
        #expect(facts[0]["target"] as? String == "counter")
        #expect(facts[0]["type"] as? String == "CounterStore.State")
        #expect((facts[0]["old"] as? [String: Int]) == ["count": 0])
        #expect((facts[0]["new"] as? [String: Int]) == ["count": 2])
        #expect(facts[0]["diff"] as? String == "- CounterStore.State(count: 0)\n+ CounterStore.State(count: 2)")
        #expect(facts[1]["type"] as? String == "Result<Account, AccountError>")
        #expect((facts[1]["value"] as? [String: [String: String]]) == ["success": ["email": "jill@example.com"]])
        #expect(facts[2]["source"] as? String == "account")
        #expect(facts[2]["type"] as? String == "UpdatedAccount")
        #expect((facts[2]["value"] as? [String: [String: String]]) == ["account": ["email": "jill@example.com"]])
        #expect((facts[4]["value"] as? [String: [String: String]]) == ["account": ["email": "jill@example.com"]])
    }

    @Test func aBlockedArticleActionSaysByWhomAndWhy() async throws {
        let run = try await KarcRun.run([], input: "articles.add title=Hello\n")
        #expect(run.status == 0)
        #expect(
            run.stdout
                == #"redirected  Articles.Add(title: "Hello") by Gatekeeper → SignInRequired(reason: "sign in first: identity.login email=… password=…")"#
                + "\nok (no changes)\n")
        let json = try await KarcRun.run(["--json"], input: "articles.add title=Hello\n").jsonLines
        #expect(json.first?["kind"] as? String == "redirect")
        #expect(json.first?["by"] as? String == "Gatekeeper")
        #expect(json.first?["type"] as? String == "Articles.Add")
    }

    @Test func aRejectedLoginNamesTheFieldsAndChangesNothing() async throws {
        let run = try await KarcRun.run(["--keep-going"], input: "identity.login email=jill password=123\n:state identity\n")
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "<stdin>:1:10: error: identity.login failed: email must be an email address like name@example.com; password must be at least 6 characters long\n"
        )
        #expect(run.stdout == "state  identity: IdentityModel.State(user: nil)\n")
    }

    @Test func theFirstFailureStopsTheScriptWithItsLineAndColumn() async throws {
        let run = try await KarcRun.run([], input: "counter.increment\ncounter.increment valeu=2\ncounter.increment\n")
        #expect(run.status == 1)
        #expect(run.stderr == "<stdin>:2:19: error: unknown field 'valeu' for increment; did you mean 'value'? Fields: value\n")
        #expect(run.stdout.components(separatedBy: "state  counter:").count == 2, "the third line never ran")
    }

    @Test func failuresAsJSONCarryLineColumnAndMessage() async throws {
        let run = try await KarcRun.run(
            ["--json", "--keep-going"],
            input:
                "countr.increment\ncounter.increment value=two\naccount.unregister\n\(Self.register)\n"
                + "account.register user-email=chris@example.com user-password=s3cret!\ncounter.increment\n")
        #expect(run.status == 1, "--keep-going still fails the run")
        let errors = run.jsonLines.filter { $0["kind"] as? String == "error" }
        #expect(errors.map { $0["line"] as? Int } == [1, 2, 3, 5])
        #expect(errors.map { $0["column"] as? Int } == [1, 25, 9, 9])
        #expect(
            errors[0]["message"] as? String == "unknown target 'countr'; did you mean 'counter'? Targets: counter, identity, articles, account, auth")
        #expect(errors[1]["message"] as? String == #"field 'value' expects Int, got "two""#)
        #expect(
            errors[2]["message"] as? String == "account.unregister failed: no account is registered: account.register user-email=… user-password=…")
        #expect(
            errors[3]["message"] as? String
                == "account.register replied with a failure: an account is already registered (jill@example.com); unregister first")
        #expect(errors[3]["type"] as? String == "Result<Account, AccountError>")
        #expect((errors[3]["value"] as? [String: String])?["failure"] == "an account is already registered (jill@example.com); unregister first")
        #expect(run.jsonLines.last(where: { $0["kind"] as? String != "done" })?["kind"] as? String == "state", "the last command still ran")
        #expect(run.jsonLines.last?["outcome"] as? String == "ok")
    }

    @Test func keepGoingRunsEverythingAndStillFails() async throws {
        let run = try await KarcRun.run(["--keep-going"], input: "nonsense\ncounter.increment\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("<stdin>:1:1: error: expected TARGET.COMMAND"))
        #expect(run.stdout.contains("+ CounterStore.State(count: 1)"))
    }

    @Test func dashECommandsRunInOrderAndQuitStops() async throws {
        let run = try await KarcRun.run(["-e", "counter.increment value=5", "-e", ":quit", "-e", "counter.increment"])
        #expect(run.status == 0)
        #expect(run.stdout == "state  counter:\n  - CounterStore.State(count: 0)\n  + CounterStore.State(count: 5)\n")
        let failing = try await KarcRun.run(["-e", "counter.reset now=1"])
        #expect(failing.status == 1)
        #expect(failing.stderr == "-e:1:15: error: unknown field 'now' for reset. It takes no fields.\n")
    }

    @Test func aScriptFileNamesItselfInErrors() async throws {
        let path = NSTemporaryDirectory() + "karc-\(UUID().uuidString).karc"
        try "counter.increment\n:sleep forever\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await KarcRun.run([path])
        #expect(run.status == 1)
        #expect(run.stderr == "\(path):2:8: error: expected a duration like 250ms, 2s, 1.5s, 1m or 1h (at most 24 hours), got 'forever'\n")
        let missing = try await KarcRun.run(["/nonexistent/script.karc"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: no such script: /nonexistent/script.karc\n")
        // A word that is no file was meant as a subcommand: the ones there are.
        let word = try await KarcRun.run(["servee"])
        #expect(word.status == 64)
        #expect(
            word.stderr.hasPrefix(
                "Error: no such script: servee, nor a subcommand of karc: its subcommands are check, export-test, export-diagram, explore, serve, attach (karc --help)"
            ), "\(word.stderr)")
    }

    @Test func metaCommandsHelpAndComplainUsefully() async throws {
        let run = try await KarcRun.run(
            ["--keep-going"],
            input: """
                :help
                :help counter.increment
                :hlep
                :events sometimes
                :timing on
                counter.increment
                :history last 2

                """)
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                """
                  counter (dispatcher): increment, increment-by-three, reset
                  identity (store): login, logout; cannot be typed (not Decodable): SignInRequired
                  articles (store): add, like, remove, load
                  account (model): register, unregister, dispatch-outgoing-message

                """))
        #expect(
            run.stdout.contains(
                "counter.increment [value=Int, default 1]\n  Adds to the count.\n  value  Int  optional, default 1  — How much to add.\n"))
        #expect(run.stdout.contains("time   "))
        #expect(run.stdout.contains("    5  ok     :timing on\n    6  ok     counter.increment\n"), "every command line is numbered")
        #expect(run.stderr.contains("<stdin>:3:2: error: unknown meta command ':hlep'; did you mean ':help'?"))
        #expect(run.stderr.contains("<stdin>:4:9: error: expected on, off, only or mute after :events, got 'sometimes'"))
    }

    @Test func eventsCanBeMutedAndShownAgain() async throws {
        let run = try await KarcRun.run([], input: ":events mute UpdatedAccount\n\(Self.register)\n:events on\naccount.unregister\n")
        #expect(run.status == 0)
        #expect(!run.stdout.contains("event  account: UpdatedAccount"))
        #expect(run.stdout.contains("event  account: DeletedAccount"))
    }

    @Test func liveMessagesArriveWhileTheScriptWaits() async throws {
        let run = try await KarcRun.run(
            ["--json", "--tick", "200ms"],
            input: "\(Self.register)\n:wait ReceivedMessage 3s\naccount.dispatch-outgoing-message message=hi\n:wait ReceivedMessage 3s\n")
        #expect(run.status == 0, "\(run.stderr)")
        let received = run.jsonLines.filter { $0["type"] as? String == "ReceivedMessage" }
        // The server welcomes the new account with the next swap; the reply to `hi` comes a swap after `hi` left.
        #expect(
            received.compactMap { ($0["value"] as? [String: String])?["text"] } == [
                "welcome to karc, jill@example.com", "re: hi (to jill@example.com)",
            ])
    }

    @Test func theAccountIsRestoredOnTheNextRunUnlessFresh() async throws {
        let directory = NSTemporaryDirectory() + "karc-state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try await KarcRun.run(["--state-dir", directory], input: "\(Self.register)\n").status == 0)
        let again = try await KarcRun.run(["--state-dir", directory], input: ":state account\n")
        #expect(again.stdout.contains(#"account: Account(email: "jill@example.com")"#), "\(again.stdout)")
        let fresh = try await KarcRun.run(["--state-dir", directory, "--fresh"], input: ":state account\n")
        #expect(fresh.stdout == "state  account: AccountState(account: nil)\n")
    }

    @Test func aCommandThatNeverAnswersBeforeTheScriptEndsFails() async throws {
        let run = try await KarcRun.run(
            ["--tick", "30s", "--timeout", "100ms"], input: "\(Self.register)\naccount.dispatch-outgoing-message message=slow\n")
        #expect(run.status == 1)
        let stderr = run.stderr(notingOnly: "account.dispatch-outgoing-message")
        #expect(
            stderr.hasPrefix(
                "<stdin>:2: note: account.dispatch-outgoing-message has not answered after 100ms; its reply will be printed when it comes\n"
                    + "<stdin>:2: error: #2 account.dispatch-outgoing-message message=slow did not answer (waited 1"), "\(run.stderr)")
    }

    @Test func waitingForAnEventThatNeverComesTimesOut() async throws {
        let run = try await KarcRun.run([], input: ":wait ReceivedMessage 100ms\n")
        #expect(run.status == 1)
        #expect(run.stderr == "<stdin>:1:7: error: timed out after 100ms waiting for ReceivedMessage\n")
    }

    @Test func hostileInputGetsErrorsNotCrashes() async throws {
        let huge = "counter.increment value=" + String(repeating: "9", count: 100_000)
        let nested = "counter.increment value=" + String(repeating: "[", count: 5_000)
        let binary = String(decoding: [0xFF, 0xFE, 0x00, 0x41] as [UInt8], as: UTF8.self)
        let run = try await KarcRun.run(["--keep-going"], input: [huge, binary, nested].joined(separator: "\n") + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 3)
        #expect(!run.stderr.contains("Fatal"))
        // An object still open at the end costs its own line; the line after it is read again
        // (here a stray quote, which costs its line too).
        let open = try await KarcRun.run(
            ["--keep-going"], input: [#"counter.increment {"value": "#, "\"unterminated", "counter.increment"].joined(separator: "\n") + "\n")
        #expect(open.status == 1)
        #expect(
            open.stderr.split(separator: "\n").map { $0.prefix(39) } == [
                "<stdin>:1:19: error: unterminated JSON ", "<stdin>:2:1: error: unterminated string",
            ])
        #expect(open.stdout.contains("count: 1"))
    }
}
