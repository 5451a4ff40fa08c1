import Foundation
import TestSupport
import Testing

/// What is typed at the prompt is what is sent and kept: multi-byte text
/// typed key by key, a line emptied on the first prompt, a history search
/// ended with Enter, keys typed while a command runs.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct PromptInputTests {
    let scratch = ScratchDirectory("karc-prompt")
    var stateHome: String { scratch.path }

    func signIn(_ tmux: Tmux) async {
        await tmux.send(text: "identity.login email=jill@example.com password=s3cret!", enter: true)
        await tmux.expect { $0.contains("user: IdentityModel.User(email: \"jill@example.com\")") }
    }

    @Test func multiByteTextTypedKeyByKeyIsSentAndKeptAsTyped() async throws {
        let title = "Crème brûlée, the café classic 日本語 👍🏽 e\u{301}!"
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome)
            await tmux.send(text: "counter.increment value=1", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await signIn(tmux)
            await tmux.type("articles.add title=\"\(title)\"")
            // Shown whole; libedit may draw the combining mark apart from its base when its bytes come in
            // two reads (a loaded machine): what is sent, checked below, is whole either way.
            await tmux.expect("the typed line is shown, not sent") { $0.contains("👍🏽 e\u{301}!\"") || $0.contains("👍🏽 e!\"") }
            #expect(!(await tmux.capture()).contains("error:"))
            await tmux.send(keys: "Enter")
            await tmux.expect { $0.contains("title: \"\(title)\"") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }

            // The history kept the line as typed: a new run recalls it and sends it again.
            await tmux.send(text: "clear", enter: true)
            await tmux.send(text: "\(KarcRun.binaryPath) --quiet; echo EXIT=$?", enter: true)
            await tmux.expect { $0.contains("demo>") }
            await signIn(tmux)
            await tmux.send(keys: "Up")
            await tmux.send(keys: "Up")
            // (libedit draws a recalled combining mark without its base's accent; what it sends is whole.)
            await tmux.expect("the history entry differs") { $0.contains("demo> articles.add title=\"Crème brûlée, the café classic 日本語 👍🏽") }
            await tmux.send(keys: "Enter")
            await tmux.expect { $0.contains("title: \"\(title)\"") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test(arguments: [
        ["BSpace"], ["C-u"], ["C-a", "C-k"], ["C-u", "C-l"],
    ])
    func emptyingTheFirstLineKeepsTheShell(keys: [String]) async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome, arguments: "--history-file /dev/null")
            await tmux.type("counter.incremnt")
            await tmux.expect { $0.contains("demo> counter.incremnt") }
            if keys == ["BSpace"] {
                for _ in "counter.incremnt" { await tmux.send(keys: "BSpace") }
            } else {
                for key in keys { await tmux.send(keys: key) }
            }
            await tmux.send(text: "counter.increment", enter: true)
            await tmux.expect("the shell left on an empty line") { $0.contains("+ CounterStore.State(count: 1)") }
            // `EXIT=` and a status: the typed `echo EXIT=$?` may wrap so that a line begins `EXIT=$?`.
            #expect(!(await tmux.capture()).split(separator: "\n").contains { $0.hasPrefix("EXIT=") && $0.dropFirst(5).first?.isNumber == true })
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func enterEndsAHistorySearchAndRunsTheFoundLine() async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome)
            await tmux.send(text: "counter.increment value=4", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 4)") }
            await tmux.send(text: "counter.increment value=1", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 5)") }
            await tmux.send(keys: "C-r")
            await tmux.type("value=4")
            await tmux.send(keys: "Enter")
            await tmux.expect("one Enter runs the found line") { $0.contains("+ CounterStore.State(count: 9)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func keysTypedWhileACommandRunsWaitForTheNextPromptLine() async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome, arguments: "--history-file /dev/null")
            await tmux.send(text: ":sleep 1s", enter: true)
            await tmux.type("counter.increment")
            await tmux.expect("the keys show on the next prompt line") { $0.contains("demo> counter.increment") }
            let pane = await tmux.capture()
            #expect(pane.components(separatedBy: "counter.increment").count == 2, "typed once, shown once:\n\(pane)")
            await tmux.send(keys: "Enter")
            await tmux.expect { $0.contains("+ CounterStore.State(count: 1)") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }
}

extension PromptInputTests {
    @Test func theErrorCaretCountsWideCharactersAsTwoColumns() async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome, arguments: "--history-file /dev/null")
            await tmux.send(text: "counter.increment value=日本👍 x", enter: true)
            await tmux.expect { $0.contains("error: expected field=value, got 'x'") }
            let lines = (await tmux.capture()).split(separator: "\n").map(String.init)
            let typed = try #require(lines.firstIndex { $0.hasPrefix("demo> counter.increment value=") })
            let caretColumn = try #require(lines[typed + 1].firstIndex(of: "^")).utf16Offset(in: lines[typed + 1])
            // "demo> counter.increment value=" is 30 columns, 日本👍 and the space 7 more.
            #expect(caretColumn == 37, "\(lines[typed])\n\(lines[typed + 1])")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }
}

extension PromptInputTests {
    @Test func anOpenListOrStringGoesOnOnTheNextLine() async throws {
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome)
            await signIn(tmux)
            await tmux.send(text: "articles.add title=\"two", enter: true)
            await tmux.expect("a continuation prompt") { $0.contains("\n...>") }
            await tmux.send(text: "lines\"", enter: true)
            await tmux.expect { $0.contains("+         two\n  +         lines") }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }

    @Test func sourceEchoesEachCommandBeforeItsOutputAtThePrompt() async throws {
        let script = scratch.file("source.karc")
        try "counter.increment value=2\ncounter.increment-by-three\n".write(toFile: script, atomically: true, encoding: .utf8)
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome, arguments: "--history-file /dev/null")
            await tmux.send(text: ":source \(script)", enter: true)
            await tmux.expect { $0.contains("+ CounterStore.State(count: 5)") }
            let pane = await tmux.capture()
            let echoed = pane.split(separator: "\n").filter { $0.hasPrefix("> ") }
            #expect(echoed == ["> counter.increment value=2", "> counter.increment-by-three"], "\(pane)")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }
}

extension PromptInputTests {
    @Test func aStateLongerThanTheScreenGoesThroughThePager() async throws {
        let paged = scratch.file("paged")
        try await Tmux.session { tmux in
            try await tmux.start()
            await tmux.send(text: "export PAGER='cat > \(paged)' NO_COLOR=1 PS1='$ '; clear", enter: true)
            await tmux.send(
                text: "\(KarcRun.binaryPath) --quiet --fresh --history-file /dev/null --state-dir \(stateHome); echo EXIT=$?", enter: true)
            await tmux.expect { $0.contains("demo>") }
            await tmux.send(text: ":state counter", enter: true)
            await tmux.expect("a short state is printed") { $0.contains("state  counter: CounterStore.State(count: 0)") }
            #expect(!FileManager.default.fileExists(atPath: paged))
            await signIn(tmux)
            for title in ["a", "b", "c", "d", "e", "f", "g"] {
                await tmux.send(text: "articles.add title=\(title)", enter: true)
                await tmux.expect { $0.contains("title: \"\(title)\"") }
            }
            await tmux.send(text: ":state articles", enter: true)
            await tmux.expect("the pager got the state") { _ in
                ((try? String(contentsOfFile: paged, encoding: .utf8)) ?? "").contains("title: \"g\"")
            }
            let pane = await tmux.capture()
            #expect(!pane.contains("state  articles: Articles("), "a paged state is not also printed:\n\(pane)")
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
    }
}
