import Foundation
import TestSupport
import Testing

/// Output that fits the terminal it is printed in: `:seq` and `:trace` at
/// the prompt drawn in the window's width (tmux at 60 and 120 columns), and
/// in a script's, in the width `COLUMNS` gives a pipe.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct TerminalWidthTests {
    let scratch = ScratchDirectory("karc-width")

    /// Runs `body` at a fresh prompt `columns` wide; signed in as jill first (command 1) when `signedIn`.
    /// `tick`: the demo's tick; by default none while the test runs (the account's welcome, a tick after
    /// the login, would print above the prompt at a time of the machine's choosing, amid the rows a test reads).
    func prompt(columns: Int, signedIn: Bool = true, tick: String = "3600s", _ body: (Tmux) async throws -> Void) async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--fresh --state-dir \(scratch.path) --tick \(tick)")
            await tmux.resize(columns: columns)
            if signedIn {
                await tmux.send(text: "identity.login email=jill@example.com password=s3cret!", enter: true)
                await tmux.expect { $0.contains("+   user: IdentityModel.User(email: \"jill@example.com\")") }
            }
            try await body(tmux)
        }
    }

    /// Runs `line` and returns the rows it printed, once `heading` and the prompt after it are shown.
    func rows(of line: String, heading: String, in tmux: Tmux) async -> [Substring] {
        await tmux.send(text: line, enter: true)
        await tmux.expect { $0.contains(heading) && $0.split(separator: "\n").last?.hasPrefix("demo>") == true }
        let pane = await tmux.capture()
        guard let start = pane.range(of: heading, options: .backwards) else { return [] }
        return pane[start.upperBound...].split(separator: "\n").filter { !$0.hasPrefix("demo>") }
    }

    @Test func at60ColumnsSeqKeepsEachCommandsNameAndEveryLifelineBesideAMark() async throws {
        try await prompt(columns: 60) { tmux in
            let diagram = await rows(of: ":seq 1", heading: "seq    #1 identity.login:", in: tmux)
            // Each send's command is named whole on its arrow: the lifeline it ends on names the target.
            #expect(diagram.contains { $0.contains("│ login ") }, "\(diagram.joined(separator: "\n"))")
            #expect(diagram.contains { $0.contains("│ load ") })
            #expect(diagram.contains { $0.contains("│ register") })
            #expect(!diagram.contains { $0.contains("identity…") || $0.contains("articles…") })
            // A mark's text stops before the next lifeline: articles' change leaves account's line whole.
            let mark = try #require(diagram.first { $0.contains("● changed") }, "\(diagram.joined(separator: "\n"))")
            #expect(mark.hasSuffix("│"), "\(mark)")
            #expect(diagram.allSatisfy { $0.count <= 60 })
        }
    }

    @Test func at120ColumnsTwoLifelinesMakeRoomForALongCommandsName() async throws {
        // The message is sent on the account's tick.
        try await prompt(columns: 120, signedIn: false, tick: "1s") { tmux in
            await tmux.send(text: "account.register user-email=jill@example.com user-password=s3cret!", enter: true)
            await tmux.expect { $0.contains("event  account: UpdatedAccount") }
            await tmux.send(text: "account.dispatch-outgoing-message message=hi", enter: true)
            await tmux.expect { $0.contains("reply  \"sent: hi\"") }
            let diagram = await rows(of: ":seq 2", heading: "seq    #2 account.dispatch-outgoing-message:", in: tmux)
            #expect(diagram.contains { $0.contains("│ account.dispatch-outgoing-message") }, "\(diagram.joined(separator: "\n"))")
        }
    }

    @Test func at60ColumnsEachLineOfATraceFitsWithItsTimeAtItsEnd() async throws {
        try await prompt(columns: 60) { tmux in
            let tree = await rows(of: ":trace 1", heading: "trace  #1 identity.login:", in: tmux)
            #expect(!tree.isEmpty)
            // Not one row wrapped: each is a line of the tree, indented, and each send's ends with its time.
            #expect(tree.allSatisfy { $0.hasPrefix("  ") }, "\(tree.joined(separator: "\n"))")
            let register = try #require(tree.first { $0.hasPrefix("    account.register  → Result.success(") })
            #expect(register.range(of: #"…  \d+\.\d{3} ms$"#, options: .regularExpression) != nil, "\(register)")
            #expect(register.count <= 60)
        }
    }

    /// The line typed at 40 columns took three rows; at 120 it takes one, and no copy of it stays above it.
    @Test func aWindowThatGrowsFrom40To120ColumnsKeepsOneCopyOfTheLine() async throws {
        let long = "articles.add title=\"a long title that goes past the edge of a narrow window\""
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--history-file /dev/null")
            await tmux.resize(columns: 40)
            // Ctrl-L puts the prompt at the screen's top-left corner, where a clear from the start of the
            // line looks to tmux like a cleared screen (kept in its history, shown again as the window grows).
            await tmux.send(keys: "C-l")
            await tmux.expect { $0.hasPrefix("demo>") }
            // Key by key, as a person types: the line is drawn again after each key.
            await tmux.type(long)
            await tmux.expect { $0.contains("edge of a narrow windo\nw\"") }
            await tmux.resize(columns: 120)
            await tmux.expect { $0.contains("demo> " + long) }
            let pane = await tmux.capture()
            #expect(pane.components(separatedBy: "demo> ").count == 2, "the line drawn once after the window grew: \(pane)")
            await tmux.send(keys: "Enter")
            await tmux.expect { $0.contains("error: sign in first") || $0.contains("redirected") }
        }
    }

    /// A line the editor drew again whole (after a resize, here) breaks its
    /// rows where the terminal would; a window that grows then shows it once.
    @Test func aLineDrawnAgainAt40ColumnsKeepsOneCopyWhenTheWindowGrows() async throws {
        // Its 40th column is a blank: where libedit's own redraw breaks the row with a newline.
        let line = #"Xarticles.add title="a long title ab""#
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--history-file /dev/null")
            await tmux.resize(columns: 40)
            // Below some output, as at any prompt.
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            // Typed, then edited at its start (libedit draws the rest of the line again).
            await tmux.type(String(line.dropFirst()))
            await tmux.send(keys: "C-a")
            await tmux.type("X")
            await tmux.expect { $0.contains("demo> Xarticles.add title=\"a long title\nab\"") }
            // Drawn again whole at 120 columns, then at 40.
            await tmux.resize(columns: 120)
            await tmux.expect { $0.contains("demo> " + line) }
            await tmux.resize(columns: 40)
            await tmux.expect { $0.contains("demo> Xarticles.add title=\"a long title\nab\"") }
            await tmux.send(keys: "C-e")
            await tmux.send(keys: "BSpace")
            await tmux.expect { $0.contains("demo> Xarticles.add title=\"a long title\nab\n") }
            await tmux.resize(columns: 120)
            await tmux.expect { $0.contains("demo> Xarticles.add title=\"a long title ab\n") }
            let pane = await tmux.capture()
            #expect(pane.components(separatedBy: "demo> Xarticles").count == 2, "the line drawn once after the window grew: \(pane)")
        }
    }

    /// At 40 columns, four lifelines 12 apart would not fit: they come
    /// closer, names and texts cut, every row within the width.
    @Test func at40ColumnsSeqFitsWithItsLifelinesCloser() async throws {
        let run = try await KarcRun.run(
            ["--fresh", "--state-dir", scratch.path, "-e", "identity.login email=jill@example.com password=s3cret!", "-e", ":seq 1"],
            environment: ["COLUMNS": "40"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        let seq = try #require(lines.firstIndex { $0.hasPrefix("seq    #1") })
        #expect(lines[(seq + 1)...].allSatisfy { $0.count <= 40 }, "\(run.stdout)")
        #expect(lines[seq + 1].contains("shell") && lines[seq + 1].contains("account"), "\(run.stdout)")
    }

    @Test func aPipesWidthIsWhatColumnsSays() async throws {
        let run = try await KarcRun.run(
            [
                "--fresh", "--state-dir", scratch.path, "-e", "identity.login email=jill@example.com password=s3cret!", "-e", ":trace 1", "-e",
                ":seq 1",
            ],
            environment: ["COLUMNS": "60"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        let trace = try #require(lines.firstIndex { $0.hasPrefix("trace  #1") })
        let seq = try #require(lines.firstIndex { $0.hasPrefix("seq    #1") })
        #expect(lines[(trace + 1)..<seq].allSatisfy { $0.count <= 60 }, "\(run.stdout)")
        #expect(lines[(seq + 1)...].allSatisfy { $0.count <= 60 }, "\(run.stdout)")
        #expect(lines[(seq + 1)...].contains { $0.contains("│ login ") })
        // Without COLUMNS a pipe has no width: nothing of the trace is cut.
        let wide = try await KarcRun.run(
            ["--fresh", "--state-dir", scratch.path, "-e", "identity.login email=jill@example.com password=s3cret!", "-e", ":trace 1"])
        #expect(wide.stdout.contains(#"    account.register  → Result.success(Account(email: "jill@example.com"))  "#), "\(wide.stdout)")
    }

    /// `:blame` in one column where its rows fit the window; at 60 columns what
    /// changed goes under each command, every row cut to the width; a string
    /// of several lines is one Swift literal, never a row at column 0.
    @Test(arguments: [60, 120])
    func blameFitsTheWindow(columns: Int) async throws {
        try await prompt(columns: columns) { tmux in
            await tmux.send(text: #"articles.add title="hello\nworld""#, enter: true)
            await tmux.expect { $0.contains("+   nextID: 2,") }
            await tmux.send(text: "articles.like id=1", enter: true)
            await tmux.expect { $0.contains("likes: 1") }
            let rows = await rows(of: ":blame articles.items", heading: "blame  articles.items: 2 changes, newest first", in: tmux)
            #expect(rows.allSatisfy { $0.count <= columns }, "\(rows.joined(separator: "\n"))")
            #expect(!rows.contains { $0.hasPrefix("world") }, "\(rows.joined(separator: "\n"))")
            if columns == 60 {
                #expect(rows.count == 4, "\(rows.joined(separator: "\n"))")
                #expect(rows[1] == "      articles.items[0].likes: 0 → 1", "\(rows.joined(separator: "\n"))")
                #expect(rows[3].hasPrefix(#"      articles.items[0]: (absent) → Articles.Article(id: 1,"#), "\(rows[3])")
            } else {
                // One row a change, what changed in one column.
                #expect(rows.count == 2, "\(rows.joined(separator: "\n"))")
                let column = rows.map { $0.range(of: "articles.items[0]")?.lowerBound.utf16Offset(in: $0) }
                #expect(column[0] != nil && column[0] == column[1], "\(rows.joined(separator: "\n"))")
                #expect(rows[1].contains(#"Articles.Article(id: 1, title: "hello"#), "\(rows[1])")
            }
        }
    }

    /// A command typed over several lines keeps its column in `:blame` and in `undone`.
    @Test func aCommandOverSeveralLinesKeepsItsColumnInBlameAndUndone() async throws {
        let script = scratch.file("multiline.karc")
        try """
        identity.login email=jill@example.com password=s3cret!
        articles.add title="hello
        world"
        :blame articles.items
        :undo

        """.write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await KarcRun.run(["--fresh", "--state-dir", scratch.path, script])
        #expect(run.status == 0, "\(run.stderr)")
        // `  #2  HH:MM:SS  articles.add title="hello`: its second line under its first, at column 16.
        #expect(
            run.stdout.contains("  #2  ")
                && run.stdout.contains(
                    "  articles.add title=\"hello\n" + String(repeating: " ", count: 16) + "world\"\n      articles.items[0]: (absent) → "),
            "\(run.stdout)")
        #expect(
            run.stdout.contains("undone  #2 articles.add title=\"hello\n" + String(repeating: " ", count: 11) + "world\": articles"), "\(run.stdout)")
    }

    /// An event of an earlier command, printed in another's output, says whose it is.
    @Test func aLateEventNamesTheCommandItCameFrom() async throws {
        let run = try await KarcRun.run(
            [
                "--fresh", "--state-dir", scratch.path, "--tick", "200ms", "-e", "account.register user-email=jill@example.com user-password=s3cret!",
                "-e", ":wait ReceivedMessage 5s",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(#"event  account (late, #1 account.register): ReceivedMessage(text: "welcome to karc, jill@example.com")"#),
            "\(run.stdout)")
        // The command's own event is its own: nothing more said.
        #expect(run.stdout.contains("event  account: UpdatedAccount("))
        // With --json it has its command's seq, as a late reply has, and says it is late.
        let json = try await KarcRun.run(
            [
                "--json", "--fresh", "--state-dir", scratch.path, "--tick", "200ms", "-e",
                "account.register user-email=jill@example.com user-password=s3cret!", "-e", ":wait ReceivedMessage 5s",
            ])
        let line = try #require(json.stdout.split(separator: "\n").first { $0.contains(#""type":"ReceivedMessage""#) })
        #expect(line.contains(#""late":true"#) && line.contains(#""seq":1,"#), "\(line)")
    }
}
