import Foundation
import KarcShell
import KarcShellTrellis
import TestSupport
import Testing
import Trellis

/// A snapshot kept under a name taken already replaces the one kept there,
/// and says so, with when that one was taken.
@Suite(.timeLimit(.minutes(1)))
struct SnapshotReplaceTests {
    let scratch = ScratchDirectory("karc-snapshot-replace")

    struct Count: Equatable, Sendable, Codable {
        var count = 0
    }
    struct Bump: Action, Codable {}

    static func counter() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Count.self).mutate(on: Bump.self) { count, _, _ in count.count += 1 }.with(model: Count()).named("counter")
        }
        return ClusterShell(name: "counter", cluster: cluster)
    }

    var plain: ShellOptions {
        var options = ShellOptions.plain(quiet: true)
        options.printing.diff = .off
        return options
    }

    @Test func takingASnapshotUnderANameKeptSaysWhichOneItReplaced() async throws {
        let run = try await Transcript.run(
            try await Self.counter(), [":snapshot s1", "counter.bump", "counter.bump", ":snapshot s1", ":snapshot s2", ":snapshots"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "snapshot  's1' keeps counter",
                "snapshot  's1' keeps counter",
                "  replaced snapshot s1 (taken before any command)",
                "snapshot  's2' keeps counter",
            ])
        let again = try await Transcript.run(
            try await Self.counter(), ["counter.bump", ":snapshot s1", "counter.bump", ":snapshot s1"], options: plain)
        #expect(again.output.contains("snapshot  's1' keeps counter\n  replaced snapshot s1 (taken after #1 counter.bump)\n"), "\(again.output)")
    }

    @Test func theSnapshotsSayWhichCommandEachWasTakenAfterAndAFailedRestoreIsNoneOfThem() async throws {
        let run = try await Transcript.run(
            try await Self.counter(), [":snapshot s0", "counter.bump", ":restore nope", ":snapshot s1", ":snapshots"],
            options: {
                var options = plain
                options.keepGoing = true
                return options
            }())
        let rows = run.output.split(separator: "\n").filter { $0.hasPrefix("snapshot  s") }
        #expect(rows.count == 2, "\(run.output)")
        #expect(rows.first?.contains("  before any command  counter  ") == true, "\(rows)")
        // #3 failed and changed nothing: s1 holds the states #2 left.
        #expect(rows.last?.contains("  after #2 counter.bump  counter  ") == true, "\(rows)")
    }

    @Test func loadingASnapshotUnderANameKeptSaysWhichOneItReplaced() async throws {
        let file = scratch.file("s.json")
        let run = try await Transcript.run(
            try await Self.counter(),
            [":snapshot s1", ":snapshot save s1 \(file)", "counter.bump", ":snapshot load \(file)", ":snapshot load \(file)"],
            options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("snapshot  's1' (\(file)) keeps counter\n  replaced snapshot s1 (taken before any command)\n"))
        #expect(run.output.hasSuffix("snapshot  's1' (\(file)) keeps counter\n  replaced snapshot s1 (read from \(file))\n"))
    }

    @Test func theReplacedSnapshotIsInTheJSONLine() async throws {
        var options = plain
        options.printing.json = true
        let run = try await Transcript.run(try await Self.counter(), ["counter.bump", ":snapshot s1", ":snapshot s1"], options: options)
        let kept = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["kind"] as? String == "snapshot-kept" }
        #expect(kept.count == 2)
        #expect(kept[0]["replaced"] == nil)
        let replaced = try #require(kept[1]["replaced"] as? [String: Any])
        #expect(replaced["after"] as? Int == 1)
        #expect(replaced["afterLine"] as? String == "counter.bump")
        #expect(kept[0]["afterLine"] as? String == "counter.bump")
        #expect(replaced["time"] is String)
    }
}
