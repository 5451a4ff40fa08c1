import Foundation
import Testing

/// Ctrl-C ends the command that runs, as psql's cancel does: at the prompt
/// the shell goes on; a script stops with status 1.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct InterruptTests {
    let stateHome = NSTemporaryDirectory() + "karc-interrupt-\(UUID().uuidString)"

    /// Runs `line` at the prompt, presses Ctrl-C once it runs, and checks the shell goes on.
    func interrupt(
        _ line: String, arguments: String = "--history-file /dev/null --fresh",
        before: (command: String, output: String)? = nil, expecting message: String
    ) async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome, arguments: arguments)
            if let before {
                await tmux.send(text: before.command, enter: true)
                await tmux.expect { $0.contains(before.output) }
            }
            await tmux.send(text: line, enter: true)
            await tmux.expect { $0.contains("demo> " + line.prefix(40)) }
            await tmux.send(keys: "C-c")
            await tmux.expect("not interrupted") { $0.contains(message) }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect("the shell did not go on") { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func ctrlCEndsASleep() async throws {
        try await interrupt(":sleep 30s", expecting: "error: interrupted")
    }

    @Test func ctrlCEndsAWait() async throws {
        try await interrupt(":wait ReceivedMessage 30s", expecting: "error: interrupted")
    }

    @Test func ctrlCEndsASendThatIsStillWaiting() async throws {
        try await interrupt(
            "account.dispatch-outgoing-message message=hi", arguments: "--history-file /dev/null --fresh --tick 30s --timeout 40s",
            before: ("account.register user-email=jill@example.com user-password=s3cret!", "+   account: Account"),
            // (A Ctrl-C that comes before the send starts ends it with a plain `interrupted`.)
            expecting: "error: interrupted")
    }

    @Test func ctrlCEndsASourcedScriptAndItsRestDoesNotRun() async throws {
        let script = NSTemporaryDirectory() + "karc-interrupt-\(UUID().uuidString).karc"
        try ":sleep 30s\ncounter.increment value=100\n".write(toFile: script, atomically: true, encoding: .utf8)
        try await interrupt(":source \(script)", expecting: "error: interrupted")
    }

    @Test func ctrlCStopsAScriptRunUnderATerminalWithStatusOne() async throws {
        let script = NSTemporaryDirectory() + "karc-interrupt-\(UUID().uuidString).karc"
        try "counter.increment\n:sleep 30s\ncounter.increment value=100\n".write(toFile: script, atomically: true, encoding: .utf8)
        try await Tmux.session { tmux in
            try await tmux.start()
            await tmux.send(text: "NO_COLOR=1 \(KarcRun.binaryPath) --fresh --state-dir \(stateHome) \(script); echo EXIT=$?", enter: true)
            // The first command's output shows that the script runs; then it sleeps.
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-c")
            await tmux.expect("the script did not stop with status 1") { $0.contains("error: interrupted") && $0.contains("EXIT=1") }
            #expect(!(await tmux.capture()).contains("count: 100"))
        }
    }
}
