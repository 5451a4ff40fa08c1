import Foundation
import TestSupport
import Testing

/// A command left open at the prompt (`...>`): Ctrl-C drops it, as psql
/// drops its query buffer, and Ctrl-D does not quit as if nothing were
/// pending; locally and through attach.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct ContinuationPromptTests {
    let scratch = ScratchDirectory("karc-continuation")

    /// Opens a string on one line and goes on on the next: the prompt is `...>`.
    func openACommand(_ tmux: Tmux) async {
        await tmux.send(text: "counter.increment value=\"1", enter: true)
        await tmux.expect { $0.contains("...>") }
        await tmux.send(text: "more", enter: true)
        await tmux.expect { $0.components(separatedBy: "...>").count == 3 }
    }

    /// Ctrl-C at `...>`, then a command: it runs as a command of its own, and Ctrl-D leaves with status 0.
    func dropAnUnfinishedCommandAndRunTheNext(_ tmux: Tmux) async {
        await openACommand(tmux)
        await tmux.send(keys: "C-c")
        await tmux.expect { $0.contains("the unfinished command is dropped (2 lines)") }
        await tmux.send(text: "counter.increment", enter: true)
        await tmux.expect("the next line was swallowed into the open string") { $0.contains("+ CounterStore.State(count: 1)") }
        await tmux.send(keys: "C-d")
        await tmux.expect { $0.contains("EXIT=0") }
    }

    @Test func ctrlCDropsTheUnfinishedCommandAndTheNextLineIsACommandOfItsOwn() async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--history-file /dev/null")
            await dropAnUnfinishedCommandAndRunTheNext(tmux)
        }
    }

    @Test func ctrlDAtAContinuationPromptSaysWhatWasNotRunAndFails() async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--history-file /dev/null")
            await openACommand(tmux)
            await tmux.send(keys: "C-d")
            // (The pane wraps the message: it is looked for without its line breaks.)
            await tmux.expect {
                $0.replacingOccurrences(of: "\n", with: "").contains(
                    "error: the unfinished command was not run: the '\"' at line 1, column 25 never closed (Ctrl-D ended the input)")
                    && $0.contains("EXIT=1")
            }
        }
    }

    @Test func throughAttachCtrlCDropsTheUnfinishedCommandInTheApp() async throws {
        let served = try await ServedDemo()
        try await Tmux.session { tmux in
            try await tmux.startAttach(home: scratch.path, to: served, arguments: "--history-file /dev/null")
            await dropAnUnfinishedCommandAndRunTheNext(tmux)
        }
        _ = await served.stop()
    }
}
