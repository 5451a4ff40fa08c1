import Foundation
import TestSupport
import Testing

/// A shell the app refuses is told at once, with where the right token is,
/// and exits 1: piped or at a prompt, on the socket or over TCP. A refusal
/// is not an outage: nothing waits to reconnect.
@Suite(.timeLimit(.minutes(1)))
struct AttachRefusalTests {
    /// A token file with a token of the right shape that is not the app's.
    func wrongToken(in served: ServedDemo) throws -> String {
        let wrong = served.scratch.file("wrong.token")
        try (String(repeating: "7", count: 64) + "\n").write(toFile: wrong, atomically: true, encoding: .utf8)
        return wrong
    }

    func refusal(_ served: ServedDemo, read wrong: String) -> String {
        "karc attach: error: the app refused this shell: wrong token (the app's token is in \(served.tokenFile)); this shell read --token-file \(wrong)\n"
    }

    @Test func aPipedScriptWithAWrongTokenIsRefusedAtOnceOnTheSocket() async throws {
        let served = try await ServedDemo()
        let wrong = try wrongToken(in: served)
        let refused = try await served.attach(["--json", "--token-file", wrong], input: "counter.increment\n")
        #expect(refused.status == 1)
        #expect(refused.stderr == refusal(served, read: wrong))
        #expect(refused.stdout.isEmpty)
        // Nothing it sent ran.
        let state = try await served.attach(["-e", ":state counter"])
        #expect(state.stdout == "state  counter: CounterStore.State(count: 0)\n", "\(state.stderr)")
        #expect(await served.stop() == 0)
    }

    @Test func aPipedScriptWithAWrongTokenIsRefusedAtOnceOverTCP() async throws {
        let served = try await ServedDemo(["--listen", "127.0.0.1:0"])
        let line = try #require(served.process.stdout.split(separator: "\n").first { $0.contains("listens on 127.0.0.1:") })
        let address = String(try #require(line.components(separatedBy: "listens on ").last?.split(separator: " ").first))
        let wrong = try wrongToken(in: served)
        let refused = try await served.attach([address, "--token-file", wrong], input: "counter.increment\ncounter.increment\n")
        #expect(refused.status == 1)
        #expect(refused.stderr == refusal(served, read: wrong))
        #expect(refused.stdout.isEmpty)
        #expect(await served.stop() == 0)
    }

    @Test(.enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
    func aPromptWithAWrongTokenIsRefusedAndDoesNotWaitToReconnect() async throws {
        let served = try await ServedDemo()
        let wrong = try wrongToken(in: served)
        let home = ScratchDirectory("karc-attach-refused")
        try await Tmux.session { tmux in
            try await tmux.start()
            await tmux.send(
                text: "export XDG_STATE_HOME=\(home.path) XDG_RUNTIME_DIR=\(served.runtimeDirectory) NO_COLOR=1 PS1='$ '", enter: true)
            await tmux.send(text: "clear", enter: true)
            await tmux.send(text: "\(KarcRun.binaryPath) attach --token-file \(wrong); echo EXIT=$?", enter: true)
            await tmux.expect("the prompt was not refused") { $0.contains("EXIT=1") }
            let pane = await tmux.capture()
            #expect(pane.contains("the app refused this shell: wrong token"), "\(pane)")
            #expect(!pane.contains("offline") && !pane.contains("reconnecting"), "\(pane)")
        }
        #expect(await served.stop() == 0)
    }
}
