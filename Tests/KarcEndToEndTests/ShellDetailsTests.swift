import Foundation
import TestSupport
import Testing

/// The small things that tell a user the tool is careful: scripts read as
/// streams, names checked against what the cluster declares, precise messages.
@Suite(.timeLimit(.minutes(1))) struct ShellDetailsTests {
    /// Runs `command` in bash (for process substitution), karc being `$KARC`.
    func bash(_ command: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["KARC"] = KarcRun.binaryPath
        let scratch = ScratchDirectory("karc-details")
        environment["XDG_DATA_HOME"] = scratch.path
        let output = try await ChildProcess.run(["/bin/bash", "-c", command], environment: environment)
        return (output.status, String(decoding: output.stdout, as: UTF8.self), String(decoding: output.stderr, as: UTF8.self))
    }

    @Test func aScriptIsReadAsAStreamFromAPipeOrDevStdin() async throws {
        let substituted = try await bash(#"$KARC --fresh <(echo counter.increment; echo counter.increment-by-three)"#)
        #expect(substituted.stderr == "")
        #expect(substituted.status == 0)
        #expect(substituted.stdout.contains("+ CounterStore.State(count: 4)"))
        let devStdin = try await bash(#"echo counter.increment value=5 | $KARC --fresh /dev/stdin"#)
        #expect(devStdin.status == 0)
        #expect(devStdin.stdout.contains("+ CounterStore.State(count: 5)"))
        let sourced = try await bash(#"$KARC --fresh -e ':source /dev/fd/3' 3< <(echo counter.increment value=2)"#)
        #expect(sourced.stdout.contains("+ CounterStore.State(count: 2)"))
        #expect(sourced.stderr == "", "\(sourced.stderr)")
    }

    @Test func aScriptThatCannotBeReadSaysWhy() async throws {
        let missing = try await KarcRun.run(["/nonexistent/script.karc"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: no such script: /nonexistent/script.karc\n")
        let directory = try await KarcRun.run([NSTemporaryDirectory()])
        #expect(directory.stderr.hasSuffix("is a directory, not a script\n"))
    }

    /// A binary, or an app's token file, given as a script is refused before
    /// any line runs: its bytes would be an error a line, and a token's
    /// secret would be printed back in the first one.
    @Test func aBinaryOrATokenFileGivenAsAScriptIsRefusedBeforeAnyLineRuns() async throws {
        let binary = try await KarcRun.run([KarcRun.binaryPath])
        #expect(binary.status == 1)
        #expect(
            binary.stderr
                == "error: \(KarcRun.binaryPath) is not a script: it holds binary data (a NUL byte on line 1); a karc script is text, a command a line\n"
        )
        let scratch = ScratchDirectory("karc-not-a-script")
        let secret = String(repeating: "0123456789abcdef", count: 4)
        for name in ["demo.token", "secret"] {
            let path = scratch.file(name)
            try (secret + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let token = try await KarcRun.run(["--fresh", "-e", "counter.increment", path])
            #expect(token.status == 1)
            #expect(
                token.stderr
                    == "error: \(path) looks like an app's token file, not a script (give it as --token-file \(path)); nothing of it was run\n")
            #expect(!token.stdout.contains("count: 1"), "nothing runs, not even -e: \(token.stdout)")
        }
    }

    /// A saved account the demo cannot read (a hand edit, a truncated file)
    /// is set aside and named, and the demo starts without it: its restore
    /// failed and was retried for ever, and every command waited out
    /// `--timeout` on it ("still busy 5s").
    @Test func aSavedAccountThatCannotBeReadIsSetAsideAndNamed() async throws {
        let scratch = ScratchDirectory("karc-corrupt-account")
        let file = scratch.file("account.json")
        try #"{"emai"#.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["--state-dir", scratch.path, "--timeout", "1m", "-e", "counter.increment", "-e", ":state account"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("note: the saved account in \(file) cannot be read ("), "\(run.stderr)")
        #expect(run.stderr.contains("it is kept as \(file).unreadable, and the demo starts without it"), "\(run.stderr)")
        #expect(!run.stderr.contains("still busy"), "\(run.stderr)")
        #expect(run.stdout.contains("state  account: AccountState(account: nil)"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: file + ".unreadable"))
    }

    /// A script an editor saved with a byte-order mark runs its first line as the others.
    @Test func aByteOrderMarkBeforeTheFirstLineIsNoPartOfIt() async throws {
        let scratch = ScratchDirectory("karc-bom")
        let path = scratch.file("bom.karc")
        try Data([0xEF, 0xBB, 0xBF] + Array("counter.increment\ncounter.increment\n".utf8)).write(to: URL(fileURLWithPath: path))
        let file = try await KarcRun.run(["--fresh", path])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.stdout.contains("+ CounterStore.State(count: 2)"))
        let piped = try await KarcRun.run(["--fresh"], input: "\u{FEFF}counter.increment\n")
        #expect(piped.status == 0, "\(piped.stderr)")
    }

    /// Control characters a script holds are escaped where an error names
    /// them: an escape sequence cannot retitle the terminal, and an
    /// invisible NUL is seen.
    @Test func controlCharactersInAnErrorAreEscapedNotWritten() async throws {
        let run = try await KarcRun.run(["--fresh", "--keep-going"], input: "\u{1B}]0;pwned\u{7}counter.x\ncounter.increment\u{0} value=2\n")
        #expect(run.status == 1)
        #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(run.stderr.debugDescription)")
        #expect(run.stderr.contains("unknown target '\\u{1B}]0;pwned\\u{7}counter'"))
        #expect(run.stderr.contains("unknown command 'increment\\u{0}' for counter; did you mean 'increment'?"))
    }

    @Test(arguments: [
        (
            ":wait RecievedMessage 1s",
            "-e:1:7: error: no target emits an event named 'RecievedMessage'; did you mean 'ReceivedMessage'? Events: UpdatedAccount, DeletedAccount, ReceivedMessage, RouteError"
        ),
        (
            ":events only Foo",
            "-e:1:14: error: no target emits an event named 'Foo'. Events: UpdatedAccount, DeletedAccount, ReceivedMessage, RouteError"
        ),
        (":quit now", "-e:1:7: error: :quit takes no arguments, got 'now'"),
        ("counter.reset now=1", "-e:1:15: error: unknown field 'now' for reset. It takes no fields."),
        ("articles.add titel=x", "-e:1:14: error: unknown field 'titel' for add; did you mean 'title'? Fields: title"),
        ("articles.add bogus=x", "-e:1:14: error: unknown field 'bogus' for add. Fields: title"),
        (":seq 99", "-e:1:6: error: no command has a flow yet: :seq draws the sends of this session"),
        (
            ":help state",
            "-e:1:7: error: unknown target 'state'. Targets: counter, identity, articles, account, auth. Did you mean :help :state?"
        ),
        (
            ":help reset",
            "-e:1:7: error: unknown target 'reset'. Targets: counter, identity, articles, account, auth. Did you mean :help :reset or :help counter.reset?"
        ),
        (#"counter.increment {"value": "x"}"#, "-e:1:29: error: counter.increment: field 'value' expects Int, got a string"),
    ])
    func aMistakeIsNamedWithItsPlace(line: String, expected: String) async throws {
        let run = try await KarcRun.run(["--fresh", "-e", line])
        #expect(run.status == 1)
        #expect(run.stderr == expected + "\n")
    }

    /// `:seq N` past the last command says there is none yet, as `:trace N` does.
    @Test func aFlowOfACommandNotRunYetSaysThereIsNone() async throws {
        let run = try await KarcRun.run(["--fresh", "-e", "counter.increment", "-e", ":seq 99"])
        #expect(run.stderr == "-e:2:6: error: there is no command 99 yet (:history lists them); commands with a flow: 1\n")
    }

    @Test func aDurationOfNothingOnTheCommandLineSaysWhy() async throws {
        let zero = try await KarcRun.run(["--timeout", "0s", "-e", ":state counter"])
        #expect(zero.status == 64)
        #expect(
            zero.stderr.hasPrefix(
                "Error: The value '0s' is invalid for '--timeout <DURATION>': a duration must be more than zero (like 250ms, 5s, 1m)\n"))
        let typo = try await KarcRun.run(["--timeout", "5x", "-e", ":state counter"])
        #expect(typo.stderr.hasPrefix("Error: The value '5x' is invalid for '--timeout <DURATION>': expected a duration like 250ms"))
    }

    @Test func helpSaysWhyATargetHidesSomeOfItsTypes() async throws {
        let run = try await KarcRun.run(["-e", ":help identity"])
        #expect(
            run.stdout == """
                identity (store):
                  identity.login email=String password=String  — Signs in.
                  identity.logout  — Signs out.
                  cannot be typed (not Decodable): SignInRequired

                """)
    }

    @Test func theSeedsEnumActionsAreCommands() async throws {
        let run = try await KarcRun.run([
            "--fresh", "-e", ":help identity.login", "-e", "identity.login email=jill@example.com password=s3cret!", "-e", "identity.logout",
        ])
        #expect(run.status == 0)
        #expect(
            run.stdout.hasPrefix(
                """
                identity.login email=String password=String
                  Signs in.
                  email  String  required  — must look like an email address.
                  password  String  required  — 6 characters or more.

                """))
        #expect(run.stdout.contains("state  identity:\n  - IdentityModel.State(user: nil)\n"))
        #expect(run.stdout.hasSuffix("  + IdentityModel.State(user: nil)\n"))
    }
}

extension ShellDetailsTests {
    @Test func aLineWithAnOpenListOrObjectGoesOnInAScript() async throws {
        let run = try await KarcRun.run(
            ["--fresh"],
            input: """
                identity.login email=jill@example.com password=s3cret!
                articles.add {
                  "title": "Hello"
                }
                articles.add title="a
                b"
                counter.increment value=
                """)
        #expect(run.stdout.contains(#"title: "Hello""#))
        #expect(run.stdout.contains("+         a\n  +         b\n"))
        // The line after the joined ones keeps its own number in an error.
        #expect(run.stderr == "<stdin>:7:25: error: missing value after 'value=' (write nil for no value)\n")
    }

    @Test func anUnclosedListAtTheEndIsAnError() async throws {
        let run = try await KarcRun.run(["--fresh"], input: "counter.increment value=[1,\n")
        #expect(
            run.stderr
                == "<stdin>:1:25: error: unterminated list: the '[' at line 1, column 25 is still open at the end of the input"
                + " (add a closing ']'); line 1 is skipped, and reading goes on at line 2\n")
    }
}

extension ShellDetailsTests {
    static let slowSend = """
        account.register user-email=jill@example.com user-password=s3cret!
        :wait ReceivedMessage 5s
        account.dispatch-outgoing-message message=hi
        counter.increment

        """

    @Test func aSendThatTimesOutIsNotBlamedOnTheNextCommandAndItsReplyComesLate() async throws {
        let run = try await KarcRun.run(["--fresh", "--tick", "1s", "--timeout", "200ms"], input: Self.slowSend)
        #expect(
            run.stderr(notingOnly: "account.dispatch-outgoing-message")
                == "<stdin>:3: note: account.dispatch-outgoing-message has not answered after 200ms; its reply will be printed when it comes\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("+ CounterStore.State(count: 1)"))
        #expect(run.stdout.hasSuffix("reply  (late, #3 account.dispatch-outgoing-message message=hi) \"sent: hi\"\n"), "\(run.stdout)")
    }

    @Test func aLateReplyIsAJSONReplyMarkedLate() async throws {
        let run = try await KarcRun.run(["--fresh", "--json", "--tick", "1s", "--timeout", "200ms"], input: Self.slowSend)
        #expect(run.status == 0)
        let kinds = run.jsonLines.map { $0["kind"] as? String }
        #expect(kinds.contains("timeout"))
        let late = try #require(run.jsonLines.last)
        #expect(late["kind"] as? String == "reply")
        #expect(late["late"] as? Bool == true)
        #expect(late["command"] as? String == "account.dispatch-outgoing-message")
        #expect(late["text"] as? String == "account.dispatch-outgoing-message message=hi")
        #expect(late["seq"] as? Int == 3 && late["line"] as? Int == 3 && late["script"] as? String == "<stdin>")
        #expect(late["value"] as? String == "sent: hi")
        // The reply of the command's own send: the root of its trace, as its other lines say.
        #expect(late["trace"] as? String != nil && late["trace"] as? String == late["span"] as? String && late["parent"] == nil)
    }
}

extension ShellDetailsTests {
    static let login = "identity.login email=jill@example.com password=s3cret!"

    @Test func diffSummaryPrintsALineAChangedTargetAndOffPrintsNone() async throws {
        let run = try await KarcRun.run(
            ["--fresh"],
            input: """
                \(Self.login)
                :diff summary
                articles.add title=a
                articles.add title=b
                :diff off
                articles.add title=c
                counter.increment
                :diff on
                counter.increment

                """)
        #expect(run.status == 0)
        #expect(
            run.stdout.hasSuffix(
                """
                diff summary: a changed target prints one line, with how many of its parts changed
                state  articles: 2 changed, 1 unchanged
                state  articles: 2 changed, 2 unchanged
                diff off: changes of state are not printed (:diff on)
                diff on: changes of state print as diffs
                state  counter:
                  - CounterStore.State(count: 1)
                  + CounterStore.State(count: 2)

                """), "\(run.stdout)")
    }

    @Test func noDiffLeavesOutStateLinesAndASummaryIsAJSONLineToo() async throws {
        let quiet = try await KarcRun.run(["--fresh", "--no-diff", "--json"], input: "counter.increment\n\(ShellScriptTests.register)\n")
        #expect(quiet.status == 0)
        #expect(quiet.jsonLines.map { $0["kind"] as? String } == ["done", "reply", "event", "done"])
        let summary = try await KarcRun.run(["--json", "-e", ":diff summary", "-e", "counter.increment"])
        #expect(summary.jsonLines.first?["kind"] as? String == "setting" && summary.jsonLines.first?["value"] as? String == "summary")
        let line = try #require(summary.jsonLines.first { $0["kind"] as? String == "state" })
        #expect(line["kind"] as? String == "state")
        #expect(line["changed"] as? Int == 1 && line["unchanged"] as? Int == 0)
    }

    /// After `:diff off`, a small state's next change is patched as any
    /// other: what the session kept of it is the state itself.
    @Test func aPatchAfterTheDiffWasOffStartsFromTheStateBefore() async throws {
        let run = try await KarcRun.run(
            ["--fresh", "--json", "--json-states"], input: "counter.increment\n:diff off\ncounter.increment\n:diff on\ncounter.increment\n")
        #expect(run.status == 0)
        let states = run.jsonLines.filter { $0["kind"] as? String == "state" }
        let patches = states.map { ($0["patch"] as? [[String: Any]])?.map { "\($0["op"] ?? "") \($0["path"] ?? "")" } }
        #expect(patches == [["replace /count"], ["replace /count"]])
        #expect(states.map { ($0["old"] as? [String: Int])?["count"] } == [0, 2])
    }

    @Test func aDiffModeThatDoesNotExistIsAnError() async throws {
        let run = try await KarcRun.run(["-e", ":diff maybe"])
        #expect(run.status == 1)
        #expect(run.stderr == "-e:1:7: error: expected :diff on, :diff off or :diff summary, got 'maybe'\n")
        let two = try await KarcRun.run(["-e", ":diff on off"])
        #expect(two.stderr == "-e:1:10: error: :diff takes one argument\n")
    }
}

extension ShellDetailsTests {
    @Test func stateWithAPathPrintsThatPartOfAState() async throws {
        let run = try await KarcRun.run(
            ["--fresh", "--keep-going"],
            input: """
                \(Self.login)
                articles.add title=a
                articles.add title=b
                :state articles items[1]
                :state articles items[1].title
                :state identity user.email
                :state articles items[9]
                :state articles itemz
                :state articles items[
                :state counter count extra

                """)
        #expect(
            run.stdout.hasSuffix(
                """
                state  articles items[1]: Articles.Article(
                                            id: 2,
                                            title: "b",
                                            likes: 0
                                          )
                state  articles items[1].title: "b"
                state  identity user.email: "jill@example.com"

                """), "\(run.stdout)")
        #expect(
            run.stderr == """
                <stdin>:7:17: error: index 9 is out of range: items has 2 elements
                <stdin>:8:17: error: no field 'itemz' in Articles; did you mean 'items'? Fields: items, nextID, owner
                <stdin>:9:22: error: unclosed '[' in the path
                <stdin>:10:22: error: :state takes a target and at most one path

                """)
        let json = try await KarcRun.run(["--json", "-e", ":state counter count"])
        let line = try #require(json.jsonLines.first)
        #expect(line["kind"] as? String == "snapshot" && line["target"] as? String == "counter" && line["path"] as? String == "count")
        #expect(line["value"] as? Int == 0)
    }
}

extension ShellDetailsTests {
    @Test func saveWritesTheCommandsThatSucceededAndSaysSo() async throws {
        let scratch = ScratchDirectory("karc-save")
        let path = scratch.file("saved.karc")
        let run = try await KarcRun.run(
            ["--fresh", "--keep-going"], input: "counter.increment\ncounter.oops\n:save \(path)\n:save\n:save /nonexistent/dir/x.karc\n")
        #expect(run.stdout.hasSuffix("saved 1 command to \(path)\n"))
        #expect(run.stderr.contains("<stdin>:4:2: error: :save needs one file name (and --with-failures to keep the commands that failed too)"))
        #expect(run.stderr.contains("<stdin>:5:7: error: cannot write /nonexistent/dir/x.karc:"))
        let saved = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(saved.dropFirst() == ["counter.increment"])
    }
}
