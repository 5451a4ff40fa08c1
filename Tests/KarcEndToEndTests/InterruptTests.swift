import Foundation
import TestSupport
import Testing

/// Ctrl-C ends the command that runs, as psql's cancel does: at the prompt
/// the shell goes on; a script stops with status 130.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct InterruptTests {
    let scratch = ScratchDirectory("karc-interrupt")
    var stateHome: String { scratch.path }

    /// Runs `lines` at the prompt (through `:source`, after a marker that
    /// shows they have started), presses Ctrl-C while the last one runs, and
    /// checks the shell goes on. (A Ctrl-C sent right after the keys of a
    /// line may overtake its Enter in the terminal, which then drops it.)
    func interrupt(
        _ lines: [String], running: String? = nil, arguments: String = "--history-file /dev/null --fresh", expecting message: String
    ) async throws {
        let running = running ?? lines.last ?? ""
        let script = scratch.file("script.karc")
        try ([":state counter"] + lines).joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome, arguments: arguments)
            await tmux.send(text: ":source \(script)", enter: true)
            await tmux.expect { $0.contains("state  counter: CounterStore.State(count: 0)") && $0.contains("> " + running.prefix(30)) }
            await tmux.send(keys: "C-c")
            // The message follows the script's path, so it may wrap at the pane's edge.
            await tmux.expect("not interrupted") { $0.replacingOccurrences(of: "\n", with: "").contains(message) }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect("the shell did not go on") { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func ctrlCEndsASleep() async throws {
        try await interrupt([":sleep 30s"], expecting: "error: interrupted")
    }

    @Test func ctrlCEndsAWait() async throws {
        try await interrupt([":wait ReceivedMessage 30s"], expecting: "error: interrupted while waiting")
    }

    @Test func ctrlCEndsASendThatIsStillWaiting() async throws {
        try await interrupt(
            ["account.register user-email=jill@example.com user-password=s3cret!", "account.dispatch-outgoing-message message=hi"],
            arguments: "--history-file /dev/null --fresh --tick 30s --timeout 40s",
            expecting: "error: interrupted: acc")
    }

    @Test func ctrlCEndsASourcedScriptAndItsRestDoesNotRun() async throws {
        try await interrupt([":sleep 30s", "counter.increment value=100"], running: ":sleep 30s", expecting: "error: interrupted")
        // The rest never ran: `counter.increment` at the prompt made the count 1, not 101 (checked in `interrupt`).
    }

    @Test func ctrlCStopsAScriptRunUnderATerminalWithStatus130() async throws {
        let script = scratch.file("script.karc")
        try "counter.increment\n:sleep 30s\ncounter.increment value=100\n".write(toFile: script, atomically: true, encoding: .utf8)
        try await Tmux.session { tmux in
            try await tmux.start()
            await tmux.send(text: "NO_COLOR=1 \(KarcRun.binaryPath) --fresh --state-dir \(stateHome) \(script); echo EXIT=$?", enter: true)
            // The first command's output shows that the script runs; then it sleeps.
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-c")
            await tmux.expect("the script did not stop with status 130") { $0.contains("error: interrupted") && $0.contains("EXIT=130") }
            #expect(!(await tmux.capture()).contains("count: 100"))
        }
    }
}
