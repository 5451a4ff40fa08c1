import Foundation
import Testing

/// The real `karc` at a prompt, in a terminal that tmux provides: completion,
/// hints, history across runs, Ctrl-C, Ctrl-Z, live output while typing,
/// Ctrl-D, and the terminal restored afterwards.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct InteractiveShellTests {
    let stateHome = NSTemporaryDirectory() + "karc-tmux-\(UUID().uuidString)"

    func startKarc(_ tmux: Tmux, arguments: String = "") throws {
        try tmux.start()
        tmux.send(text: "export XDG_STATE_HOME=\(stateHome) XDG_DATA_HOME=\(stateHome)/data NO_COLOR=1 PS1='$ '", enter: true)
        tmux.send(text: "clear", enter: true)
        tmux.send(text: "\(KarcRun.binaryPath) --quiet \(arguments); echo EXIT=$?", enter: true)
        #expect(tmux.waitFor { $0.contains("demo>") }, "no prompt:\n\(tmux.capture())")
    }

    @Test func tabCompletesTargetsCommandsAndFieldsAndAHintShowsTheFields() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try startKarc(tmux)
        tmux.send(text: "cou")
        tmux.send(keys: "Tab")
        #expect(tmux.waitFor { $0.contains("demo> counter.") })
        tmux.send(text: "inc")
        tmux.send(keys: "Tab")
        #expect(tmux.waitFor { $0.contains("demo> counter.increment") })
        tmux.send(keys: "Tab")  // increment / increment-by-three: both listed
        #expect(tmux.waitFor { $0.contains("counter.increment  counter.increment-by-three") }, "\(tmux.capture())")
        tmux.send(text: " ")
        #expect(tmux.waitFor { $0.contains("[value=Int, default 1]") }, "hint missing:\n\(tmux.capture())")
        tmux.send(text: "va")
        tmux.send(keys: "Tab")
        tmux.send(text: "5", enter: true)
        #expect(tmux.waitFor { $0.contains("+ CounterStore.State(count: 5)") }, "\(tmux.capture())")
        tmux.send(keys: "C-d")
        #expect(tmux.waitFor { $0.contains("EXIT=0") })
    }

    @Test func historyIsKeptAcrossRunsInAPrivateFile() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try startKarc(tmux)
        tmux.send(text: "  counter.increment value=7  ", enter: true)
        #expect(tmux.waitFor { $0.contains("+ CounterStore.State(count: 7)") })
        tmux.send(keys: "C-d")
        #expect(tmux.waitFor { $0.contains("EXIT=0") })
        let path = stateHome + "/karc/history"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        tmux.send(text: "clear", enter: true)
        tmux.send(text: "\(KarcRun.binaryPath) --quiet; echo EXIT=$?", enter: true)
        #expect(tmux.waitFor { $0.contains("demo>") })
        tmux.send(keys: "Up")
        #expect(tmux.waitFor { $0.contains("demo> counter.increment value=7") }, "the trimmed line comes back:\n\(tmux.capture())")
        tmux.send(keys: "Enter")
        #expect(tmux.waitFor { $0.contains("+ CounterStore.State(count: 7)") })
        tmux.send(keys: "C-d")
        #expect(tmux.waitFor { $0.contains("EXIT=0") })
    }

    @Test func ctrlCClearsTheLineAndTheShellGoesOn() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try startKarc(tmux)
        tmux.send(text: "articles.add title=")
        // A person presses Ctrl-C after seeing the line; the terminal drops input not yet read.
        #expect(tmux.waitFor { $0.contains("demo> articles.add title=") })
        tmux.send(keys: "C-c")
        #expect(tmux.waitFor { $0.contains("articles.add title=^C") })
        tmux.send(text: "counter.increment", enter: true)
        #expect(tmux.waitFor { $0.contains("+ CounterStore.State(count: 1)") }, "\(tmux.capture())")
        #expect(!tmux.capture().contains("title=counter"))
        tmux.send(keys: "C-d")
        #expect(tmux.waitFor { $0.contains("EXIT=0") })
    }

    @Test func anEventArrivingMidLineIsPrintedAboveAndTheLineStaysIntact() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try startKarc(tmux, arguments: "--tick 400ms --fresh")
        tmux.send(text: "account.register user-email=jill@example.com user-password=s3cret!", enter: true)
        #expect(tmux.waitFor { $0.contains("event  account: UpdatedAccount") })
        tmux.send(text: "account.dispatch-outgoing-message message=hi", enter: true)
        #expect(tmux.waitFor { $0.contains("reply  \"sent: hi\"") }, "\(tmux.capture())")
        tmux.send(text: "counter.incr")
        #expect(tmux.waitFor { $0.contains("ReceivedMessage(text: \"re: hi (to jill@example.com)\")") }, "\(tmux.capture())")
        let lines = tmux.capture().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.last { !$0.isEmpty }?.hasPrefix("demo> counter.incr") == true, "\(lines)")
        tmux.send(text: "ement", enter: true)
        #expect(tmux.waitFor { $0.contains("+ CounterStore.State(count: 1)") }, "the half-typed line was kept:\n\(tmux.capture())")
        tmux.send(keys: "C-d")
        #expect(tmux.waitFor { $0.contains("EXIT=0") })
    }

    @Test func ctrlZSuspendsAndFgResumesWithTheLineIntact() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try startKarc(tmux)
        tmux.send(text: "counter.incr")
        #expect(tmux.waitFor { $0.contains("demo> counter.incr") })
        tmux.send(keys: "C-z")
        #expect(tmux.waitFor { $0.contains("Stopped") }, "\(tmux.capture())")
        tmux.send(text: "fg", enter: true)
        #expect(tmux.waitFor { $0.contains("demo> counter.incr") })
        tmux.send(text: "ement", enter: true)
        #expect(tmux.waitFor { $0.contains("+ CounterStore.State(count: 1)") }, "\(tmux.capture())")
        tmux.send(keys: "C-d")
        // bash ran `echo EXIT=$?` when the job stopped; after `fg` the job's own status tells.
        #expect(tmux.waitFor { pane in
            pane.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                .trimmingCharacters(in: .whitespaces) == "$"
        }, "bash's prompt is back:\n\(tmux.capture())")
        tmux.send(text: "echo DONE=$?", enter: true)
        #expect(tmux.waitFor { $0.contains("DONE=0") }, "\(tmux.capture())")
    }

    @Test func utf8InputAndAWindowResizeKeepTheLine() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try startKarc(tmux)
        tmux.send(text: "counter.increment value=héllo")
        Tmux.run(["tmux", "resize-window", "-t", tmux.name, "-x", "80", "-y", "20"])
        #expect(tmux.waitFor { $0.contains("demo> counter.increment value=héllo") }, "\(tmux.capture())")
        tmux.send(keys: "Enter")
        #expect(tmux.waitFor { $0.contains(#"error: field 'value' expects Int, got "héllo""#) }, "\(tmux.capture())")
        tmux.send(keys: "C-d")
        #expect(tmux.waitFor { $0.contains("EXIT=0") })
    }

    @Test func ctrlDLeavesWithStatusZeroAndTheTerminalAsItWas() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try tmux.start()
        let before = stateHome + ".stty-before", after = stateHome + ".stty-after"
        tmux.send(text: "stty -g > \(before); \(KarcRun.binaryPath) --quiet --history-file /dev/null; echo EXIT=$?; stty -g > \(after)", enter: true)
        #expect(tmux.waitFor { $0.contains("demo>") })
        tmux.send(text: "counter.oops", enter: true)
        #expect(tmux.waitFor { $0.contains("error: unknown command 'oops'") })
        tmux.send(keys: "C-d")
        #expect(tmux.waitFor { $0.contains("EXIT=0") })
        #expect(tmux.waitFor { _ in FileManager.default.fileExists(atPath: after) })
        let settings = try [before, after].map { try String(contentsOfFile: $0, encoding: .utf8) }
        #expect(settings[0] == settings[1], "stty -g differs after karc")
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        try tmux.start()
        let before = stateHome + ".term-before", after = stateHome + ".term-after"
        tmux.send(text: "stty -g > \(before); \(KarcRun.binaryPath) --quiet --history-file /dev/null --timeout 7s --fresh; echo EXIT=$?; stty -g > \(after)", enter: true)
        #expect(tmux.waitFor { $0.contains("demo>") })
        tmux.send(text: "counter.inc")
        #expect(tmux.waitFor { $0.contains("demo> counter.inc") })
        Tmux.run(["pkill", "-TERM", "-f", "karc --quiet --history-file /dev/null --timeout 7s --fresh"])
        #expect(tmux.waitFor { $0.contains("EXIT=143") }, "\(tmux.capture())")
        #expect(tmux.waitFor { _ in FileManager.default.fileExists(atPath: after) })
        let settings = try [before, after].map { try String(contentsOfFile: $0, encoding: .utf8) }
        #expect(settings[0] == settings[1], "stty -g differs after SIGTERM")
    }
}

/// A tmux session running bash, 100×30.
final class Tmux: Sendable {
    let name = "karc-test-\(UUID().uuidString.prefix(8))"

    static var isAvailable: Bool {
        run(["bash", "-c", "command -v tmux"]) == 0
    }

    func start() throws {
        let status = Self.run(["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "30", "bash --norc --noprofile"])
        guard status == 0 else { throw TmuxError(message: "tmux new-session failed with \(status)") }
        _ = waitFor { !$0.isEmpty }
    }

    func send(text: String, enter: Bool = false) {
        Self.run(["tmux", "send-keys", "-t", name, "-l", text])
        if enter { send(keys: "Enter") }
    }

    func send(keys: String) {
        Self.run(["tmux", "send-keys", "-t", name, keys])
    }

    func capture() -> String {
        Self.output(["tmux", "capture-pane", "-p", "-t", name])
    }

    /// Polls the pane for up to 10 s; true as soon as `condition` holds.
    func waitFor(_ condition: (String) -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition(capture()) { return true }
            usleep(20_000)
        }
        return condition(capture())
    }

    func kill() {
        Self.run(["tmux", "kill-session", "-t", name])
    }

    @discardableResult
    static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func output(_ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

struct TmuxError: Error {
    let message: String
}
