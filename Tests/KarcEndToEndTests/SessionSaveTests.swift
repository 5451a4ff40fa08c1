import Foundation
import TestSupport
import Testing

/// A session explored at the prompt is saved (`:save`) or recorded as it
/// runs (`--record`), and replays to the same transcript.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Tmux.isAvailable, "needs tmux (make test installs it)"))
struct SessionSaveTests {
    let scratch = ScratchDirectory("karc-save")
    var stateHome: String { scratch.path }
    /// Each line typed, and what shows that it ran.
    static let session = [
        ("counter.increment value=2", "count: 2)"), ("counter.incremnt", "unknown command 'incremnt'"),
        ("identity.login email=jill@example.com password=s3cret!", "email: \"jill@example.com\")"),
        ("counter.increment", "count: 3)"), ("articles.add title=\"Crème brûlée\"", "title: \"Crème brûlée\""),
        (":state counter", "state  counter: CounterStore.State(count: 3)"),
    ]
    static var typed: [String] { session.map(\.0) }

    @Test func aSessionSavedAtThePromptReplaysToTheSameTranscript() async throws {
        let saved = scratch.file("saved.karc")
        let all = scratch.file("all.karc")
        let recorded = scratch.file("recorded.karc")
        try await Tmux.session { tmux in
            try await tmux.startKarc(stateHome: stateHome, arguments: "--fresh --history-file /dev/null --record \(recorded)")
            for (line, shown) in Self.session {
                await tmux.send(text: line, enter: true)
                await tmux.expect { $0.contains(shown) }
            }
            // (--quiet leaves out the "saved N commands" notice.)
            await tmux.send(text: ":save \(saved)", enter: true)
            await tmux.expect { _ in FileManager.default.fileExists(atPath: saved) }
            await tmux.send(text: ":save \(all) --with-failures", enter: true)
            await tmux.expect { _ in FileManager.default.fileExists(atPath: all) }
            await tmux.send(keys: "C-d")
            await tmux.expect { $0.contains("EXIT=0") }
        }
        let succeeded = Self.typed.filter { $0 != "counter.incremnt" }
        let savedLines = try String(contentsOfFile: saved, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(savedLines.first?.hasPrefix("# karc session saved ") == true)
        #expect(Array(savedLines.dropFirst()) == succeeded)
        #expect(Array(try String(contentsOfFile: all, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)) == Self.typed)
        let recordedLines = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recordedLines.first?.hasPrefix("# karc session recorded ") == true)
        #expect(Array(recordedLines.dropFirst()) == succeeded, ":save and --record keep the same lines")

        // The saved script, replayed on a fresh cluster, prints what those commands print.
        let replay = try await KarcRun.run(["--fresh", "--echo", saved])
        let direct = try await KarcRun.run(["--fresh", "--echo"], input: succeeded.joined(separator: "\n") + "\n")
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == "> " + savedLines[0] + "\n" + direct.stdout)
    }

    @Test func withFailuresBothKeepTheLinesThatFailedToo() async throws {
        let recorded = scratch.file("failures.karc")
        let saved = scratch.file("saved-failures.karc")
        let old = scratch.file("saved-all.karc")
        let lines = ["counter.increment", "counter.incremnt", ":save \(saved) --with-failures", ":save \(old) --all"]
        let run = try await KarcRun.run(
            ["--fresh", "--keep-going", "--record", recorded, "--with-failures"], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 1)
        let kept = ["counter.increment", "counter.incremnt"]
        #expect(Array(try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)) == kept)
        #expect(Array(try String(contentsOfFile: saved, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)) == kept)
        #expect(
            Array(try String(contentsOfFile: old, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)) == kept, "--all still works")
    }

    @Test func withFailuresWithoutARecordFileIsRefused() async throws {
        let run = try await KarcRun.run(["--with-failures", "-e", "counter.increment"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--with-failures says what --record keeps: give --record FILE too"), "\(run.stderr)")
    }

    @Test func aRecordFileThatCannotBeWrittenIsRefused() async throws {
        let run = try await KarcRun.run(["--record", "/nonexistent/dir/session.karc", "-e", "counter.increment"])
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot record to /nonexistent/dir/session.karc: No such file or directory\n")
    }
}
