import Foundation
import TestSupport
import Testing

/// A line run from the inspector's page while someone types at the prompt:
/// the terminal prints it (said to come from the page) above the half-typed
/// line, which is still there after; the prompt goes on as before.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct InspectorAtThePromptTests {
    let scratch = ScratchDirectory("karc-tmux-inspect")
    static let runFromPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/run_from_page.py").path

    /// `karc --inspect` at a prompt in tmux with `counter.res` half typed,
    /// and the page's URL it printed.
    func halfTypedWithAPage(_ body: (Tmux, String) async throws -> Void) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "no chromedriver: make test installs it")
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: scratch.path, arguments: "--inspect --fresh")
            let pane = await tmux.capture()
            let url = try #require(pane.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/).map { String($0.output) }, "\(pane)")
            await tmux.send(text: "counter.res")
            try await body(tmux, url)
        }
    }

    @Test func aLineFromThePageIsPrintedAboveTheHalfTypedLineWhichStays() async throws {
        try await halfTypedWithAPage { tmux, url in
            let page = try await ChildProcess.run(["/usr/bin/python3", Self.runFromPage, url, "counter.increment-by-three"])
            #expect(
                String(decoding: page.stdout, as: UTF8.self) == "#1 counter.increment-by-three: ok\n",
                "\(String(decoding: page.stderr, as: UTF8.self))")
            await tmux.expect { $0.contains("from the inspector: counter.increment-by-three") && $0.contains("+ CounterStore.State(count: 3)") }
            await tmux.expect("the half-typed line is gone") { $0.hasSuffix("demo> counter.res\n") || $0.contains("demo> counter.res\n") }
            // The line typed here goes on where it was.
            await tmux.send(text: "et", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 0)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    /// `:state` from the page goes above the line being typed, as any line
    /// from the page does: the pager (or a direct write) would take the
    /// terminal from under the editor, glue the output to the half-typed
    /// line and leave no prompt.
    @Test func aStateAskedFromThePageIsPrintedAboveTheLineNotPaged() async throws {
        try await halfTypedWithAPage { tmux, url in
            let page = try await ChildProcess.run(["/usr/bin/python3", Self.runFromPage, url, ":state counter"])
            #expect(String(decoding: page.stdout, as: UTF8.self) == "#1 :state counter: ok\n", "\(String(decoding: page.stderr, as: UTF8.self))")
            await tmux.expect("the state is on a line of its own, the half-typed line after it") {
                $0.contains("\nfrom the inspector: :state counter\nstate  counter: CounterStore.State(count: 0)\ndemo> counter.res")
            }
            await tmux.send(text: "et", enter: true)
            await tmux.expect { $0.contains("demo> counter.reset\n") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }
}
