import Foundation
import KarcRendering
import KarcShellTrellis
import Testing
import Trellis

@testable import KarcSession

/// A long list in a user's value store, through a whole session: each
/// command's diff and patch are what the states before and after it make,
/// while the shell keeps only a snapshot of the list, and the store
/// appends where the list lies.
@Suite("A long state through a session", .timeLimit(.minutes(1)))
struct LongStateTests {
    struct Article: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var done = false
        var due: Date?
    }
    struct Shelf: Codable, Equatable, Sendable {
        var articles: [Article]
        var owner = "jill"
        /// Where `articles` lay each time a `Probe` asked.
        var probes: [Int] = []
    }
    struct Add: Codable, Sendable { var title: String }
    struct Finish: Codable, Sendable { var index: Int }
    struct Drop: Codable, Sendable { var index: Int }
    struct Touch: Codable, Sendable {}
    struct Probe: Codable, Sendable {}

    static func shelf() -> Shelf {
        var shelf = Shelf(
            articles: (0..<300).map { Article(id: $0, title: "article \($0)", due: $0.isMultiple(of: 2) ? nil : Date(timeIntervalSince1970: 0)) })
        shelf.articles.reserveCapacity(1_000)
        return shelf
    }

    static func cluster() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Shelf.self)
                .mutate(on: Add.self) { shelf, add, _ in shelf.articles.append(Article(id: shelf.articles.count, title: add.title)) }
                .mutate(on: Finish.self) { shelf, finish, _ in shelf.articles[finish.index].done = true }
                .mutate(on: Drop.self) { shelf, drop, _ in shelf.articles.remove(at: drop.index) }
                .mutate(on: Touch.self) { _, _, _ in }
                .mutate(on: Probe.self) { shelf, _, _ in
                    shelf.probes.append(shelf.articles.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) })
                }
                .with(model: shelf())
                .named("shelf")
        }
        return ClusterShell(name: "library", cluster: cluster)
    }

    static let commands = ["shelf.add title=one", "shelf.finish index=7", "shelf.touch", "shelf.drop index=0", "shelf.add title=two"]

    /// The states the commands make, one after another.
    static var states: [Shelf] {
        var state = shelf()
        var all = [state]
        state.articles.append(Article(id: 300, title: "one"))
        all.append(state)
        state.articles[7].done = true
        all.append(state)
        all.append(state)
        state.articles.remove(at: 0)
        all.append(state)
        state.articles.append(Article(id: 300, title: "two"))
        all.append(state)
        return all
    }

    @Test func eachCommandPrintsTheDiffOfItsOwnChange() async throws {
        var options = ShellOptions()
        options.printing.color = false
        let run = try await Transcript.run(try await Self.cluster(), Self.commands, options: options)
        #expect(run.errors == "")
        let states = Self.states
        let diffs = zip(states, states.dropFirst()).compactMap { StateDiff.text($0, $1) }
        #expect(diffs.count == 4, "the touch changes nothing")
        let expected = diffs.map {
            "state  shelf:\n" + $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        #expect(run.output.components(separatedBy: "ok (no changes)\n").count == 2, "the touch says it changed nothing")
        #expect(run.output.replacingOccurrences(of: "ok (no changes)\n", with: "") == expected.joined())
    }

    @Test func eachCommandsPatchIsItsOwnChange() async throws {
        var options = ShellOptions()
        options.printing.json = true
        let run = try await Transcript.run(try await Self.cluster(), Self.commands, options: options)
        #expect(run.errors == "")
        let patches = try run.output.split(separator: "\n").compactMap { line -> [String]? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard object?["kind"] as? String == "state", let patch = object?["patch"] as? [[String: Any]] else { return nil }
            return try patch.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
        }
        #expect(
            patches == [
                [#"{"op":"add","path":"\/articles\/300","value":{"done":false,"id":300,"title":"one"}}"#],
                [#"{"op":"replace","path":"\/articles\/7\/done","value":true}"#],
                [#"{"op":"remove","path":"\/articles\/0"}"#],
                [#"{"op":"add","path":"\/articles\/300","value":{"done":false,"id":300,"title":"two"}}"#],
            ])
    }

    /// After `:diff off`, the session kept no JSON tree of a long state it
    /// did not print: the next patch replaces the whole state, and the
    /// patches after it are patches again.
    @Test func theFirstPatchAfterTheDiffWasOffReplacesALongState() async throws {
        var options = ShellOptions()
        options.printing.json = true
        let run = try await Transcript.run(
            try await Self.cluster(),
            ["shelf.add title=one", ":diff off", "shelf.add title=two", ":diff on", "shelf.add title=three", "shelf.finish index=1"],
            options: options)
        #expect(run.errors == "")
        let patches = try run.output.split(separator: "\n").compactMap { line -> [String]? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard object?["kind"] as? String == "state", let patch = object?["patch"] as? [[String: Any]] else { return nil }
            return patch.map { "\($0["op"] ?? "") \($0["path"] ?? "")" }
        }
        #expect(patches == [["add /articles/300"], ["replace "], ["replace /articles/1/done"]])
    }

    /// What the snapshot is for: nobody but the store holds the list, so an
    /// append does not copy it. (A session's first change of a target
    /// copies it once: that report carries the state before it.)
    @Test func theStoreAppendsWhereItsListLies() async throws {
        let shell = try await Self.cluster()
        var options = ShellOptions()
        options.printing.quiet = true
        let script = ["shelf.add title=one", "shelf.probe", "shelf.add title=two", "shelf.finish index=3", "shelf.add title=three", "shelf.probe"]
        // Records let go where they are printed: on the disposal queue, a loaded machine may free the one that
        // shares the list after the next append, which then copies it (time, not a copy the session keeps).
        var runtime = ShellRuntime()
        runtime.disposal = RecordDisposal(limit: 0)
        let run = try await Transcript.run(shell, script, options: options, runtime: runtime)
        #expect(run.status == 0)
        let probes = (await shell.state(of: "shelf") as? Shelf)?.probes
        #expect(probes?.count == 2)
        #expect(probes?.first == probes?.last, "appended and edited in place")
    }
}
