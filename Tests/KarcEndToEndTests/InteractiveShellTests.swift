import Foundation
import TestSupport
import Testing

/// The real `karc` at a prompt, in a terminal that tmux provides: completion,
/// hints, history across runs, Ctrl-C, Ctrl-Z, live output while typing,
/// Ctrl-D, and the terminal restored afterwards.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct InteractiveShellTests {
    let scratch = ScratchDirectory("karc-tmux")
    var stateHome: String { scratch.path }

    func startKarc(_ tmux: Tmux, arguments: String = "") async throws {
        try await tmux.startKarc(stateHome: stateHome, arguments: arguments)
    }

    @Test func aLineLongerThanTheWindowIsDrawnOnceAsItIsTypedAndWhenTheWindowNarrows() async throws {
        let long = "articles.add title=\"a very long title that goes on and on and on past the edge of the window\""
        try await Tmux.session { tmux in
            try await startKarc(tmux)
            await tmux.type(long)
            await tmux.expect { $0.contains("edge of the window\"") }
            var pane = await tmux.capture()
            #expect(pane.components(separatedBy: "demo> ").count == 2, "the prompt drawn once: \(pane)")
            await tmux.resize(columns: 40)
            await tmux.expect { $0.contains("demo> articles.add title=\"a very long ti\n") }
            pane = await tmux.capture()
            #expect(pane.components(separatedBy: "demo> ").count == 2, "the prompt drawn once after the resize: \(pane)")
            #expect(pane.contains("tle that goes on and on and on past the\nedge of the window\""), "\(pane)")
            await tmux.send(keys: "C-u")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func tabCompletesAPathIntoATargetsStateAsItIsNow() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux, arguments: "--fresh")
            await tmux.send(text: "identity.login email=jill@example.com password=s3cret!", enter: true)
            await tmux.send(text: "articles.add title=Hello", enter: true)
            await tmux.expect { $0.contains("title: \"Hello\"") }
            await tmux.send(text: ":state articles it")
            await tmux.send(keys: "Tab")
            await tmux.expect { $0.contains("demo> :state articles items") }
            await tmux.send(text: "[")
            await tmux.send(keys: "Tab")
            await tmux.expect("the only element is completed") { $0.contains("demo> :state articles items[0]") }
            await tmux.send(text: ".t")
            await tmux.send(keys: "Tab")
            await tmux.expect { $0.contains("demo> :state articles items[0].title") }
            await tmux.send(text: "", enter: true)
            await tmux.expect { $0.contains("state  articles items[0].title: \"Hello\"") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func historyShowsWhatACommandSetOffAfterItEnded() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux, arguments: "--fresh --tick 300ms")
            // Wide enough for the late event's line, which names its command, on one row.
            await tmux.resize(columns: 160)
            await tmux.send(text: "account.register user-email=ann@example.com user-password=secret1", enter: true)
            await tmux.expect { $0.contains("account: Account(email: \"ann@example.com\")") }
            await tmux.send(text: "account.dispatch-outgoing-message message=\"hi\"", enter: true)
            // The answer comes a tick after the command ended, while the prompt waits: it says whose it is.
            let received = "event  account (late, #2 account.dispatch-outgoing-message): ReceivedMessage(text: \"re: hi (to ann@example.com)\")"
            await tmux.expect { $0.contains(received) }
            await tmux.send(keys: "C-l")
            await tmux.send(text: ":history 2", enter: true)
            await tmux.expect("the late event is not in the command's history") {
                $0.contains("2  ok     account.dispatch-outgoing-message") && $0.contains("ok (no changes)\n\(received)\ndemo>")
            }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func tabCompletesTheNameOfASnapshotKept() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux, arguments: "--fresh")
            await tmux.send(text: ":snapshot before-login", enter: true)
            await tmux.expect { $0.contains("snapshot  'before-login'") }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(text: ":restore be")
            await tmux.send(keys: "Tab")
            await tmux.expect("the snapshot's name was not completed") { $0.contains("demo> :restore before-login") }
            await tmux.send(text: "", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 0)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func tabCompletesTargetsCommandsAndFieldsAndAHintShowsTheFields() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux)
            await tmux.send(text: "cou")
            await tmux.send(keys: "Tab")
            await tmux.expect { $0.contains("demo> counter.") }
            await tmux.send(text: "inc")
            await tmux.send(keys: "Tab")
            await tmux.expect { $0.contains("demo> counter.increment") }
            await tmux.send(keys: "Tab")  // increment / increment-by-three: both listed
            await tmux.expect { $0.contains("counter.increment  counter.increment-by-three") }
            await tmux.send(text: " ")
            await tmux.expect("hint missing") { $0.contains("[value=Int, default 1]") }
            await tmux.send(text: "va")
            await tmux.send(keys: "Tab")
            await tmux.send(text: "5", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 5)") }
            // The hint is gone from the lines left above: the one Tab listed under, and the one entered.
            let pane = await tmux.capture()
            let left = pane.split(separator: "\n").filter { $0.hasPrefix("demo> counter.increment") }
            #expect(left.count == 2 && left.allSatisfy { !$0.contains("[value=") }, "\(pane)")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func theHintIsErasedFromALineOnceItIsEntered() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux)
            await tmux.send(text: "counter.increment ")
            await tmux.expect("hint missing") { $0.contains("[value=Int, default 1]") }
            await tmux.send(keys: "Enter")
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            let pane = await tmux.capture()
            #expect(!pane.contains("[value="), "\(pane)")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func historyIsKeptAcrossRunsInAPrivateFile() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux)
            await tmux.send(text: "  counter.increment value=7  ", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 7)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
            let path = stateHome + "/karc/demo.history"
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)

            await tmux.send(text: "clear", enter: true)
            await tmux.send(text: "\(KarcRun.binaryPath) --quiet; echo EXIT=$?", enter: true)
            // The new prompt, on the cleared screen (not the last run's, still there until `clear` ran).
            await tmux.expect { $0.contains("demo>") && !$0.contains("count: 7") }
            await tmux.send(keys: "Up")
            await tmux.expect("the trimmed line comes back") { $0.contains("demo> counter.increment value=7") }
            await tmux.send(keys: "Enter")
            await tmux.expect { $0.contains("+ CounterStore.State(count: 7)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func ctrlCClearsTheLineAndTheShellGoesOn() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux)
            await tmux.send(text: "articles.add title=")
            // A person presses Ctrl-C after seeing the line; the terminal drops input not yet read.
            await tmux.expect { $0.contains("demo> articles.add title=") }
            await tmux.send(keys: "C-c")
            await tmux.expect { $0.contains("articles.add title=^C") }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            let pane = await tmux.capture()
            #expect(!pane.contains("title=counter"))
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func anEventArrivingMidLineIsPrintedAboveAndTheLineStaysIntact() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux, arguments: "--tick 400ms --fresh")
            // Wide enough for the late event's line, which names its command, on one row.
            await tmux.resize(columns: 160)
            await tmux.send(text: "account.register user-email=jill@example.com user-password=s3cret!", enter: true)
            await tmux.expect { $0.contains("event  account: UpdatedAccount") }
            await tmux.send(text: "account.dispatch-outgoing-message message=hi", enter: true)
            await tmux.expect { $0.contains("reply  \"sent: hi\"") }
            await tmux.send(text: "counter.incr")
            // The event above, and below it the prompt redrawn with the half-typed line (the redraw may follow the event's print).
            await tmux.expect("the event was not printed above an intact line") { pane in
                let lastLine = pane.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty }
                return pane.contains("ReceivedMessage(text: \"re: hi (to jill@example.com)\")") && lastLine?.hasPrefix("demo> counter.incr") == true
            }
            await tmux.send(text: "ement", enter: true)
            await tmux.expect("the half-typed line was kept") { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func ctrlZSuspendsAndFgResumesWithTheLineIntact() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux)
            await tmux.send(text: "counter.incr")
            await tmux.expect { $0.contains("demo> counter.incr") }
            await tmux.send(keys: "C-z")
            await tmux.expect { $0.contains("Stopped") }
            await tmux.send(text: "fg", enter: true)
            // The line drawn again after `fg` (it was on the screen before the stop, too): keys typed
            // before karc has the terminal back would go to bash.
            await tmux.expect { pane in
                guard let resumed = pane.range(of: "$ fg", options: .backwards) else { return false }
                return pane[resumed.upperBound...].contains("demo> counter.incr")
            }
            await tmux.send(text: "ement", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            // bash ran `echo EXIT=$?` when the job stopped; after `fg` the job's own status tells.
            await tmux.expect("bash's prompt is back") { pane in
                pane.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                    .trimmingCharacters(in: .whitespaces) == "$"
            }
            await tmux.send(text: "echo DONE=$?", enter: true)
            await tmux.expect { $0.contains("DONE=0") }
        }
    }

    @Test func utf8InputAndAWindowResizeKeepTheLine() async throws {
        try await Tmux.session { tmux in
            try await startKarc(tmux)
            await tmux.send(text: "counter.increment value=héllo")
            await Tmux.run(["resize-window", "-t", tmux.name, "-x", "80", "-y", "20"])
            await tmux.expect { $0.contains("demo> counter.increment value=héllo") }
            await tmux.send(keys: "Enter")
            await tmux.expect { $0.contains(#"error: field 'value' expects Int, got "héllo""#) }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func ctrlDLeavesWithStatusZeroAndTheTerminalAsItWas() async throws {
        try await Tmux.session { tmux in
            try await tmux.start()
            let before = scratch.file("stty-before")
            let after = scratch.file("stty-after")
            await tmux.send(
                text: "stty -g > \(before); \(KarcRun.binaryPath) --quiet --history-file /dev/null; echo EXIT=$?; stty -g > \(after)", enter: true)
            await tmux.expect { $0.contains("demo>") }
            await tmux.send(text: "counter.oops", enter: true)
            await tmux.expect { $0.contains("error: unknown command 'oops'") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
            // Written whole (the file exists as soon as the shell opens it for `stty`'s output).
            await tmux.expect { _ in (try? String(contentsOfFile: after, encoding: .utf8))?.hasSuffix("\n") == true }
            let settings = try [before, after].map { try String(contentsOfFile: $0, encoding: .utf8) }
            #expect(settings[0] == settings[1], "stty -g differs after karc")
        }
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        try await Tmux.session { tmux in
            try await tmux.start()
            let before = scratch.file("term-before")
            let after = scratch.file("term-after")
            await tmux.send(
                text:
                    "stty -g > \(before); \(KarcRun.binaryPath) --quiet --history-file /dev/null --timeout 7s --fresh; echo EXIT=$?; stty -g > \(after)",
                enter: true)
            await tmux.expect { $0.contains("demo>") }
            await tmux.send(text: "counter.inc")
            await tmux.expect { $0.contains("demo> counter.inc") }
            await Tmux.run(command: ["pkill", "-TERM", "-f", "karc --quiet --history-file /dev/null --timeout 7s --fresh"])
            await tmux.expect { $0.contains("EXIT=143") }
            // Written whole (the file exists as soon as the shell opens it for `stty`'s output).
            await tmux.expect { _ in (try? String(contentsOfFile: after, encoding: .utf8))?.hasSuffix("\n") == true }
            let settings = try [before, after].map { try String(contentsOfFile: $0, encoding: .utf8) }
            #expect(settings[0] == settings[1], "stty -g differs after SIGTERM")
        }
    }
}

/// A tmux session running bash, 100×30, on a tmux server of the test
/// process's own (`tmux -L`): a developer running `make test` inside tmux
/// and these tests never see each other's sessions. Every call awaits: the
/// tmux client runs and the pane is polled without holding a thread of the
/// cooperative pool.
final class Tmux: Sendable {
    let name = "karc-test-\(UUID().uuidString.prefix(8))"

    /// The socket name of this process's tmux server.
    static let server = "karc-tests-\(getpid())"

    /// Whether a `tmux` is on PATH; looked up without starting a process.
    static var isAvailable: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/tmux")
        }
    }

    /// Runs `body` in a new session, which is killed afterwards whatever `body` does.
    static func session(_ body: (Tmux) async throws -> Void) async throws {
        let tmux = Tmux()
        do {
            try await body(tmux)
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
    }

    /// Starts `karc --quiet` on a cleared screen, its history and data under `stateHome`.
    func startKarc(stateHome: String, arguments: String = "") async throws {
        try await start()
        await send(
            text: "export XDG_STATE_HOME=\(stateHome) XDG_DATA_HOME=\(stateHome)/data XDG_CONFIG_HOME=\(stateHome)/config NO_COLOR=1 PS1='$ '",
            enter: true)
        await send(text: "clear", enter: true)
        await send(text: "\(KarcRun.binaryPath) --quiet \(arguments); echo EXIT=$?", enter: true)
        await expect("no prompt") { $0.contains("demo>") }
    }

    /// Starts `karc attach --quiet` in front of `served` on a cleared screen, its history and config under `home`.
    func startAttach(home: String, to served: ServedDemo, arguments: String = "") async throws {
        try await start()
        await send(
            text:
                "export XDG_STATE_HOME=\(home) XDG_CONFIG_HOME=\(home)/config XDG_RUNTIME_DIR=\(served.runtimeDirectory) NO_COLOR=1 PS1='$ '",
            enter: true)
        await send(text: "clear", enter: true)
        await send(text: "\(KarcRun.binaryPath) attach --quiet \(arguments); echo EXIT=$?", enter: true)
        await expect("no prompt") { $0.contains("demo>") }
    }

    /// Types `text` one character at a time, as a person does (each its own write to the terminal).
    func type(_ text: String) async {
        for character in text { await send(text: String(character)) }
    }

    func start() async throws {
        // Suites run side by side: a session may start just as another suite's last one ends and
        // the tmux server exits under it ("server exited unexpectedly"). Trying again starts a new server.
        var status: Int32 = -1
        for _ in 0..<3 {
            status = await Self.run(["new-session", "-d", "-s", name, "-x", "100", "-y", "30", "bash --norc --noprofile"])
            if status == 0 { break }
        }
        guard status == 0 else { throw TmuxError(message: "tmux new-session failed with \(status)") }
        _ = await waitFor { !$0.isEmpty }
    }

    func send(text: String, enter: Bool = false) async {
        await Self.run(["send-keys", "-t", name, "-l", text])
        if enter { await send(keys: "Enter") }
    }

    func send(keys: String) async {
        await Self.run(["send-keys", "-t", name, keys])
    }

    /// Makes the window `columns` wide, as a person dragging its edge does.
    func resize(columns: Int) async {
        await Self.run(["resize-window", "-t", name, "-x", "\(columns)"])
    }

    func capture() async -> String {
        let output = try? await ChildProcess.run(["tmux", "-L", Self.server, "capture-pane", "-p", "-t", name])
        return output.map { String(decoding: $0.stdout, as: UTF8.self) } ?? ""
    }

    /// Polls the pane until `condition` holds; after 40 s (far above any run, and below the
    /// test's time limit, so the pane is shown) records an issue showing the pane.
    func expect(
        _ comment: String = "the pane never matched", sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) async {
        if await waitFor(condition) { return }
        Issue.record("\(comment):\n\(await capture())", sourceLocation: sourceLocation)
    }

    /// Polls the pane for up to 40 s; true as soon as `condition` holds
    /// (a terminal's screen has no change signal to wait on).
    func waitFor(_ condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(40))
        while ContinuousClock.now < deadline {
            if condition(await capture()) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(await capture())
    }

    func kill() async {
        await Self.run(["kill-session", "-t", name])
    }

    /// Runs a tmux command on this process's server (`send-keys …`), its output thrown away;
    /// its exit status, or -1 when it cannot start.
    @discardableResult
    static func run(_ arguments: [String]) async -> Int32 {
        await run(command: ["tmux", "-L", server] + arguments)
    }

    /// Runs any command with its output thrown away; its exit status, or -1 when it cannot start.
    @discardableResult
    static func run(command arguments: [String]) async -> Int32 {
        (try? await ChildProcess.run(arguments, capture: false))?.status ?? -1
    }
}

struct TmuxError: Error {
    let message: String
}
