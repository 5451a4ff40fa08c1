import Foundation
import TestSupport
import Testing

/// `karc attach` at a prompt, in a terminal tmux provides, in front of `karc serve`.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct AttachPromptTests {
    let home = ScratchDirectory("karc-attach-tmux")

    func startAttach(_ tmux: Tmux, _ served: ServedDemo) async throws {
        try await tmux.startAttach(home: home.path, to: served)
    }

    @Test func theAppsCatalogCompletesAndItsMessagesArriveWhileTheUserTypes() async throws {
        let served = try await ServedDemo(tick: "300ms")
        try await Tmux.session { tmux in
            try await startAttach(tmux, served)
            // Wide enough for the late event's line, which names its command, on one row.
            await tmux.resize(columns: 160)
            await tmux.send(text: "acc")
            await tmux.send(keys: "Tab")
            await tmux.expect { $0.contains("demo> account.") }
            await tmux.send(text: "reg")
            await tmux.send(keys: "Tab")
            await tmux.send(text: " ")
            await tmux.expect("hint missing") { $0.contains("user-email=String user-password=String") }
            await tmux.send(text: "user-email=ann@example.com user-password=secret1", enter: true)
            await tmux.expect { $0.contains("+   account: Account(email: \"ann@example.com\")") }
            await tmux.send(text: "account.dispatch-outgoing-message message=\"hi\"", enter: true)
            await tmux.expect { $0.contains("reply  \"sent: hi\"") }
            // The reply to the message comes a tick later, while a half-typed line waits at the prompt.
            await tmux.send(text: "counter.incr")
            await tmux.expect("the message never arrived") {
                $0.contains("event  account (late, #2 account.dispatch-outgoing-message): ReceivedMessage(text: \"re: hi (to ann@example.com)\")")
            }
            let pane = await tmux.capture()
            #expect(pane.split(separator: "\n").last { $0.hasPrefix("demo>") } == "demo> counter.incr", "\(pane)")
            await tmux.send(keys: "C-u")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
        _ = await served.stop()
    }

    @Test func tabCompletesAPathIntoTheAppsStateAndACaretFindsItsRow() async throws {
        let served = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, served)
            await tmux.send(text: ":state account acc")
            await tmux.send(keys: "Tab")
            await tmux.expect("the app's state did not complete") { $0.contains("demo> :state account account") }
            await tmux.send(keys: "C-u")
            // A line longer than the window (100 columns), the mistake on its first row.
            let long = "counter.incremnt " + (1...12).map { "value=\($0)" }.joined(separator: " ")
            await tmux.send(text: long, enter: true)
            await tmux.expect { $0.contains("unknown command 'incremnt'") }
            let pane = await tmux.capture()
            let rows = pane.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let caret = try #require(rows.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "^" })
            #expect(rows[caret - 1].hasPrefix("      counter.incremnt value=1"), "the row copied above the caret: \(pane)")
            #expect(rows[caret].firstIndex(of: "^").map { rows[caret].distance(from: rows[caret].startIndex, to: $0) } == 14)
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
        _ = await served.stop()
    }

    @Test func tabCompletesTheNameOfASnapshotTheAppsSessionKept() async throws {
        let served = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, served)
            await tmux.send(text: ":snapshot fresh", enter: true)
            await tmux.expect { $0.contains("snapshot  'fresh'") }
            await tmux.send(text: ":restore f")
            await tmux.send(keys: "Tab")
            await tmux.expect("the snapshot's name was not completed") { $0.contains("demo> :restore fresh") }
            await tmux.send(keys: "C-u")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
        _ = await served.stop()
    }

    @Test func aChangeAnotherShellMadeSaysSo() async throws {
        let served = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, served)
            let other = try await served.attach(["-e", "counter.increment value=7"])
            #expect(other.status == 0, "\(other.stderr)")
            await tmux.expect("the change was not told, or not as another shell's") {
                $0.contains("state  counter (by another shell: counter.increment):") && $0.contains("+ CounterStore.State(count: 7)")
            }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
        _ = await served.stop()
    }

    @Test func whenTheAppRestartsThePromptSaysSoAndReconnects() async throws {
        let first = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, first)
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            #expect(await first.stop() == 0)
            await tmux.expect { $0.contains("connection lost: demo is shutting down") && $0.contains("reconnecting in 500ms") }
            await tmux.expect("the prompt does not say it is offline") { $0.split(separator: "\n").last == "demo (offline)>" }
            // Meanwhile: commands are dropped, and said to be; :help still lists them.
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("offline: counter.increment was dropped, not sent; it is in the history") }
            await tmux.send(text: ":help", enter: true)
            await tmux.expect { $0.contains("counter (dispatcher): increment, increment-by-three, reset") }
            // The app comes back (a new token, as after any restart).
            let second = try await ServedDemo(in: first.scratch)
            await tmux.expect("no reconnection") { $0.contains("reconnected to unix:\(first.socket)") }
            await tmux.expect("the prompt still says offline") { $0.split(separator: "\n").last == "demo>" }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") && $0.contains("reconnected") }
            // A second restart is waited for as briefly as the first: the pause starts over after a reconnection.
            #expect(await second.stop() == 0)
            await tmux.expect("the pause did not start over") { $0.components(separatedBy: "reconnecting in 500ms").count == 3 }
            let third = try await ServedDemo(in: first.scratch)
            await tmux.expect("no second reconnection") { $0.components(separatedBy: "reconnected to unix:").count == 3 }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
            _ = await third.stop()
        }
    }

    @Test func watchesAndTracingComeBackAfterTheAppRestartsAndTheLineSaysSo() async throws {
        let first = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, first)
            await tmux.send(text: ":watch counter", enter: true)
            await tmux.expect { $0.contains("watching counter, now") }
            await tmux.send(text: ":watch identity.user", enter: true)
            await tmux.expect { $0.contains("watching identity.user, now") }
            await tmux.send(text: ":trace on", enter: true)
            await tmux.send(text: ":snapshot before", enter: true)
            await tmux.expect { $0.contains("snapshot  'before'") }
            #expect(await first.stop() == 0)
            await tmux.expect("the prompt does not say it is offline") { $0.split(separator: "\n").last == "demo (offline)>" }
            let second = try await ServedDemo(in: first.scratch)
            await tmux.expect("the reconnect line does not say what came back") {
                // One line, wrapped by the pane's width.
                $0.replacingOccurrences(of: "\n", with: "").contains(
                    "your line history stays); your 2 watches and :trace on are back; the snapshot before went with the old session")
            }
            // They work in the new session: the change is watched and traced.
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect("the watch did not come back") { $0.contains("watch  counter.count: 0 → 1  (by #1 counter.increment)") }
            await tmux.expect("tracing did not come back") { $0.contains("trace  #1 counter.increment") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
            _ = await second.stop()
        }
    }

    /// An inspector asked for at the prompt ended with the app's session:
    /// the new session serves a new page, and the shell says where.
    @Test func anInspectorAskedForComesBackAsANewPageAfterTheAppRestarts() async throws {
        let first = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, first)
            await tmux.resize(columns: 200)
            await tmux.send(text: ":inspect", enter: true)
            await tmux.expect { $0.contains("inspector: http://127.0.0.1:") }
            #expect(await first.stop() == 0)
            await tmux.expect("the prompt does not say it is offline") { $0.split(separator: "\n").last == "demo (offline)>" }
            let second = try await ServedDemo(in: first.scratch)
            await tmux.expect("no new page, or not said") {
                $0.components(separatedBy: "inspector: http://127.0.0.1:").count == 3
                    && $0.replacingOccurrences(of: "\n", with: "").contains("; the inspector is a new page, at the address above")
            }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
            _ = await second.stop()
        }
    }

    @Test func anOutageWhileACommandRunsGivesThePromptBack() async throws {
        let first = try await ServedDemo()
        try await Tmux.session { tmux in
            try await tmux.startAttach(home: home.path, to: first, arguments: "--echo")
            // The app runs the command (its echo is printed before it runs) and the connection goes
            // before the prompt's resume: the prompt must not wait for a resume that never comes.
            await tmux.send(text: ":sleep 10m", enter: true)
            await tmux.expect("the app did not start the command") { $0.split(separator: "\n").contains("> :sleep 10m") }
            #expect(await first.stop() == 0)
            await tmux.expect("the prompt did not come back") { $0.split(separator: "\n").last == "demo (offline)>" }
            // Leaving while the app is away: the session did not end as asked.
            await tmux.send(text: ":quit", enter: true)
            await tmux.expect { $0.contains("EXIT=1") }
        }
    }

    @Test func aLineTypedWhileATryToReconnectHangsIsAnsweredAtOnce() async throws {
        let first = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, first)
            #expect(await first.stop() == 0)
            await tmux.expect { $0.contains("reconnecting in 500ms") }
            // Something listens where the app did and never answers: the next try hangs on it.
            unlink(first.socket)
            let silent = try UnixListener(path: first.socket)
            let held = await silent.nextConnection()
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect("the line waited on the try, or was lost with it") {
                $0.contains("offline: counter.increment was dropped, not sent; it is in the history")
            }
            // It goes: that try fails, and a later one reaches the app, back in its place.
            close(held)
            silent.close()
            unlink(first.socket)
            let second = try await ServedDemo(in: first.scratch)
            await tmux.expect("no reconnection") { $0.contains("reconnected to unix:\(first.socket)") }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
            _ = await second.stop()
        }
    }

    @Test func ctrlCEndsTheCommandRunningInTheAppAndThePromptGoesOn() async throws {
        let served = try await ServedDemo()
        try await Tmux.session { tmux in
            try await startAttach(tmux, served)
            // Through :source, whose first command's output shows the wait has begun: a Ctrl-C
            // sent right after a typed line may overtake its Enter (the terminal drops it), and the
            // pane looks the same before and after that Enter.
            let script = served.scratch.path + "/wait.karc"
            try ":state counter\n:wait ReceivedMessage 60s\n".write(toFile: script, atomically: true, encoding: .utf8)
            await tmux.send(text: ":source \(script)", enter: true)
            let process = served.process
            #expect(await process.until { $0.stderr.contains("a shell attached") })
            await tmux.expect { $0.contains("state  counter: CounterStore.State(count: 0)") && $0.contains("> :wait ReceivedMessage 60s") }
            await tmux.send(keys: "C-c")
            // (Interrupted while it waits, or, on a slow machine, just before it started to.)
            await tmux.expect("not interrupted") { $0.replacingOccurrences(of: "\n", with: "").contains("error: interrupted") }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect("the shell did not go on") { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
        _ = await served.stop()
    }
}
