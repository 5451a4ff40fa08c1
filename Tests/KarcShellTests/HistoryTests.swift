import Foundation
import KarcShell
import KarcShellTrellis
import TestSupport
import Testing
import Trellis

@testable import KarcOutput
@testable import KarcSession

/// `:watch`, `:blame`, `:history`'s filters and `:history N`, and `:reset`
/// on a cluster of the user's own: a library whose shelf holds books, a
/// dictionary of tags and an optional owner, and a returns desk fed from
/// outside the shell (background work).
@Suite(.timeLimit(.minutes(1)))
struct HistoryTests {
    struct Book: Equatable, Sendable, Codable {
        var title: String
        var loans = 0
    }
    struct Owner: Equatable, Sendable, Codable { var name: String }
    struct Shelf: Equatable, Sendable {
        var books: [Book] = []
        var tags: [String: Int] = [:]
        var owner: Owner?
    }

    struct Add: Action, Codable { var title: String }
    struct Lend: Action, Codable { var index: Int }
    struct Remove: Action, Codable { var index: Int }
    struct Tag: Action, Codable {
        var name: String
        var count: Int
    }
    struct Own: Action, Codable { var name: String }
    struct Returned: Action, Codable {}
    struct Reserve: Action, Codable { var title: String }
    struct Open: Action, Codable {}
    struct NoSuchBook: Error, CustomStringConvertible {
        var index: Int
        var description: String { "no book at \(index)" }
    }

    /// The library. A reservation's book is shelved later, by a task its
    /// handler starts, once `desk.open` opens the door (which returns once it is shelved).
    static func library() async throws -> ClusterShell {
        let door = AsyncStream<Void>.makeStream()
        let shelved = AsyncStream<Void>.makeStream()
        let cluster = try await Bootstrap {
            Store(model: Shelf.self)
                .mutate(on: Add.self) { shelf, add, _ in shelf.books.append(Book(title: add.title)) }
                .mutate(on: Lend.self) { shelf, lend, _ in
                    guard shelf.books.indices.contains(lend.index) else { throw NoSuchBook(index: lend.index) }
                    shelf.books[lend.index].loans += 1
                }
                .mutate(on: Remove.self) { shelf, remove, _ in
                    guard shelf.books.indices.contains(remove.index) else { throw NoSuchBook(index: remove.index) }
                    shelf.books.remove(at: remove.index)
                }
                .mutate(on: Tag.self) { shelf, tag, _ in shelf.tags[tag.name] = tag.count }
                .mutate(on: Own.self) { shelf, own, _ in shelf.owner = Owner(name: own.name) }
                .mutate(on: Reserve.self) { _, reserve, send in
                    Task {
                        for await _ in door.stream { break }
                        try await send(Add(title: reserve.title))
                        shelved.continuation.yield()
                    }
                }
                .with(model: Shelf()).named("shelf")
            Store(model: Int.self)
                .mutate(on: Returned.self) { count, _, _ in count += 1 }
                .mutate(on: Open.self) { opened, _, _ in
                    opened += 1
                    door.continuation.yield()
                    for await _ in shelved.stream { break }
                }
                .with(model: 0).named("desk")
        }
        return ClusterShell(name: "library", cluster: cluster)
    }

    var plain: ShellOptions { .plain(quiet: true) }

    /// The lines that start with `prefix`, with each time of day masked.
    static func lines(_ output: String, _ prefix: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }.map {
            $0.replacingOccurrences(of: #"\d{2}:\d{2}:\d{2}"#, with: "<time>", options: .regularExpression)
        }
    }

    @Test func aWatchPrintsEachChangeOfItsPartAsItHappensAndNothingElse() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(
            library,
            [
                ":watch shelf.books[0].loans", "shelf.add title=Dune", "shelf.add title=Emma", "shelf.lend index=0", "shelf.lend index=1",
                "shelf.tag name=classic count=1", "shelf.remove index=0", "shelf.remove index=0",
            ], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasPrefix(
                "watching shelf.books[0].loans, not there now (index 0 is out of range: books has 0 elements); reported when it appears\n"))
        #expect(
            Self.lines(run.output, "watch  ") == [
                "watch  shelf.books[0].loans: (absent) → 0  (by #2 shelf.add)",
                "watch  shelf.books[0].loans: 0 → 1  (by #4 shelf.lend)",
                // A path names a place: when Dune goes, Emma (lent once too) is there, and nothing changed at it.
                "watch  shelf.books[0].loans: 1 → (absent)  (by #8 shelf.remove)",
            ])
        await library.shutDown()
    }

    @Test func aWatchOfAWholeTargetListsThePartsThatChangedInside() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(
            library, [":watch shelf", "shelf.own name=Ann", "shelf.tag name=sci-fi count=2", "shelf.tag name=sci-fi count=3", ":watch"],
            options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasPrefix("watching shelf, now HistoryTests.Shelf(books: [], tags: [:], owner: nil)\n"))
        #expect(
            Self.lines(run.output, "watch") == [
                "watching shelf, now HistoryTests.Shelf(books: [], tags: [:], owner: nil)",
                "watch  shelf.owner: nil → HistoryTests.Owner(name: \"Ann\")  (by #2 shelf.own)",
                "watch  shelf.tags[\"sci-fi\"]: (absent) → 2  (by #3 shelf.tag)",
                "watch  shelf.tags[\"sci-fi\"]: 2 → 3  (by #4 shelf.tag)",
                "watching  shelf",
            ])
        await library.shutDown()
    }

    @Test func aChangeAnEarlierCommandMadeLateIsWatchedAndBlamedOnThatCommand() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(
            library, [":watch shelf.books", "shelf.reserve title=Dune", "desk.open", ":blame shelf.books"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        // Shelved while desk.open ran, by the task shelf.reserve started: its cause is the reservation.
        #expect(
            Self.lines(run.output, "watch  ") == [
                #"watch  shelf.books[0]: (absent) → HistoryTests.Book(title: "Dune", loans: 0)  (by #2 shelf.reserve)"#
            ])
        #expect(
            Self.lines(run.output, "  #") == [
                #"  #2  <time>  shelf.reserve title=Dune   shelf.books[0]: (absent) → HistoryTests.Book(title: "Dune", loans: 0)"#
            ])
        await library.shutDown()
    }

    @Test func blameListsTheCommandsThatChangedAPartNewestFirstWithBeforeAndAfter() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(
            library,
            [
                "shelf.add title=Dune", "shelf.lend index=0", "shelf.own name=Ann", "shelf.lend index=0", ":blame shelf.books[0].loans",
                ":blame shelf.books 2", ":blame shelf.owner.name",
            ], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            Self.lines(run.output, "blame") == [
                "blame  shelf.books[0].loans: 3 changes, newest first",
                "blame  shelf.books: 2 latest changes, newest first",
                "blame  shelf.owner.name: 1 change, newest first",
            ])
        #expect(
            Self.lines(run.output, "  #") == [
                // What changed, in one column.
                "  #4  <time>  shelf.lend index=0     1 → 2",
                "  #2  <time>  shelf.lend index=0     0 → 1",
                "  #1  <time>  shelf.add title=Dune   (absent) → 0",
                "  #4  <time>  shelf.lend index=0   shelf.books[0].loans: 1 → 2",
                "  #2  <time>  shelf.lend index=0   shelf.books[0].loans: 0 → 1",
                "  #3  <time>  shelf.own name=Ann   (absent) → \"Ann\"",
            ])
        #expect(run.output.contains("  … older ones: :blame shelf.books N lists N"))
        await library.shutDown()
    }

    @Test func blameReachingPastTheHistoryLimitSaysChangesWereDropped() async throws {
        let library = try await Self.library()
        var options = plain
        options.history.limit = 2
        let run = try await Transcript.run(
            library, ["shelf.add title=A", "shelf.add title=B", "shelf.add title=C", ":blame shelf.books"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        #expect(Self.lines(run.output, "blame") == ["blame  shelf.books: 2 changes, newest first"])
        #expect(run.output.contains("  changes before #2 are no longer kept (--history-limit)\n"))
        await library.shutDown()
    }

    @Test func historyFindsCommandsByPatternTargetAndFailureAndShowsOneAgain() async throws {
        let library = try await Self.library()
        var options = plain
        options.keepGoing = true
        let run = try await Transcript.run(
            library,
            [
                "shelf.add title=Dune", "desk.returned", "shelf.remove index=5", "shelf.lend index=0", ":history /TITLE=dune/",
                ":history target desk",
                ":history failed", ":history last 2", ":history 1",
            ], options: options)
        #expect(run.status == 1)
        let listed = run.output.split(separator: "\n").map(String.init).filter { $0.range(of: #"^ {4}\d  "#, options: .regularExpression) != nil }
        #expect(
            listed == [
                "    1  ok     shelf.add title=Dune",
                "    2  ok     desk.returned",
                "    3  error  shelf.remove index=5",
                "    6  ok     :history target desk",
                "    7  ok     :history failed",
                "    1  ok     shelf.add title=Dune",
            ])
        // A filter that keeps nothing says so.
        let none = try await Transcript.run(library, ["shelf.add title=Emma", ":history /nothing like this/", ":history failed"], options: options)
        #expect(
            none.output.contains(
                "no command matches (of the 1 command this session keeps)\nno command matches (of the 2 commands this session keeps)\n"
            ), "\(none.output)")
        // `:history 1` shows the command's output again: its diff.
        let again = try #require(run.output.components(separatedBy: "    1  ok     shelf.add title=Dune\n").last)
        #expect(again.hasPrefix("state  shelf:\n"))
        #expect(again.contains(#"+     [0]: HistoryTests.Book("#))
        await library.shutDown()
    }

    @Test func resetPutsTheClusterBackAndPrintsTheChange() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(library, ["shelf.add title=Dune", ":watch shelf.books", ":reset", ":state shelf"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            Self.lines(run.output, "watch  ") == [#"watch  shelf.books[0]: HistoryTests.Book(title: "Dune", loans: 0) → (absent)  (by #3 :reset)"#])
        #expect(run.output.contains("state  shelf: HistoryTests.Shelf(\n"))
        #expect(run.output.contains("books: [],"))
        await library.shutDown()
    }

    @Test func aSessionThatResetCannotBeExportedAsATestThatWouldNot() async throws {
        let library = try await Self.library()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("karc-reset-\(UUID().uuidString).swift").path
        var options = plain
        options.testExport.factory = "try await makeLibrary()"
        let run = try await Transcript.run(library, ["shelf.add title=Dune", ":reset", ":export-test \(file)"], options: options)
        #expect(run.status == 1)
        #expect(
            run.errors.contains("cannot write <test>:2: :reset as Swift: a test does not replay :reset; export the part after it"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: file), "nothing half written")
        await library.shutDown()
    }

    @Test func watchAndBlameAreJSONLinesForPrograms() async throws {
        let library = try await Self.library()
        var options = plain
        options.printing.json = true
        let run = try await Transcript.run(
            library, [":watch shelf.books[0]", "shelf.add title=Dune", ":blame shelf.books[0].title", ":watch"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        let objects = run.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let watch = try #require(objects.first { $0["kind"] as? String == "watch" })
        #expect(watch["watch"] as? String == "shelf.books[0]")
        #expect(watch["target"] as? String == "shelf")
        #expect(watch["path"] as? String == "books[0]")
        #expect(watch["old"] == nil)
        #expect((watch["new"] as? [String: Any])?["title"] as? String == "Dune")
        #expect(watch["by"] as? String == "#2 shelf.add")
        #expect(watch["number"] as? Int == 2)
        #expect(watch["seq"] as? Int == 2)
        let blame = try #require(objects.first { $0["kind"] as? String == "blame" })
        let changes = try #require(blame["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["path"] as? String == "books[0].title")
        #expect(changes.first?["new"] as? String == "Dune")
        #expect(changes.first?["line"] as? String == "shelf.add title=Dune")
        #expect((changes.first?["time"] as? String)?.hasSuffix("Z") == true)
        #expect(objects.first { $0["kind"] as? String == "watches" }?["paths"] as? [String] == ["shelf.books[0]"])
    }

    @Test func badPathsNumbersAndPatternsAreClearErrors() async throws {
        let library = try await Self.library()
        var options = plain
        options.keepGoing = true
        let run = try await Transcript.run(
            library,
            [
                ":watch shlef.books", ":watch shelf.books[", ":watch shelf..x", ":blame", ":blame shelf zero", ":unwatch shelf.owner",
                ":unwatch", ":history 99", ":history /[/", ":history sometimes", ":history last", ":history target nowhere", ":reset now",
            ], options: options)
        #expect(run.status == 1)
        let errors = run.errors.split(separator: "\n").filter { $0.contains("error:") }.map(String.init)
        #expect(
            errors == [
                "<test>:1:8: error: no target 'shlef' in 'shlef.books'; did you mean 'shelf'? Targets: shelf, desk",
                "<test>:2:19: error: unclosed '[' in the path",
                "<test>:3:14: error: a path starts with a field name",
                "<test>:4:2: error: :blame takes a part of a state: :blame articles.items[3].likes, or a target: :blame counter",
                "<test>:5:14: error: expected a number of changes (like :blame counter 20), got 'zero'",
                "<test>:6:10: error: not watching shelf.owner; nothing is watched",
                "<test>:7:2: error: :unwatch takes what to stop watching, or all",
                "<test>:8:10: error: command 99 does not exist; of this session's commands #1–#7 are kept",
                "<test>:9:11: error: not a regular expression: [",
                "<test>:10:10: error: expected a command's number, last n, /REGEX/, output /REGEX/, target NAME or failed after :history, got 'sometimes'",
                "<test>:11:10: error: expected a number of commands after last (like :history last 10)",
                "<test>:12:17: error: unknown target 'nowhere'. Targets: shelf, desk",
                "<test>:13:8: error: :reset takes nothing but --partial (:reset --partial resets what it can)",
            ])
    }

    @Test func aClusterWithoutAResetSaysSo() async throws {
        let run = try await Transcript.run(BareCluster(), [":reset"], options: plain)
        #expect(run.status == 1)
        #expect(run.errors.contains("cannot reset: this cluster cannot reset its targets (its ShellCluster is not a ResettableShellCluster)"))
    }
}

/// What `:history N` keeps of a command's output: what it printed while it
/// ran, then what came for it after it ended, within one limit.
@Suite(.timeLimit(.minutes(1)))
struct LateHistoryOutputTests {
    typealias Output = KarcSession.HistoryEntry.CommandOutput

    @Test func lateOutputFollowsWhatTheCommandPrinted() {
        var output = Output(output: "reply  \"sent: hi\"")
        output.append(Output(output: "event  account: ReceivedMessage(text: \"re: hi\")"))
        #expect(output.output == "reply  \"sent: hi\"\nevent  account: ReceivedMessage(text: \"re: hi\")")
        var empty = Output()
        empty.append(Output(output: "late"))
        #expect(empty.output == "late", "no blank line before the first")
    }

    @Test func lateOutputKeepsLinesUpToTheLimitAndCountsTheRest() {
        var output = Output(output: String(repeating: "x", count: OutputSink.tapLimit - 6))
        #expect(output.room == 5, "the limit less what is kept and the newline before what comes")
        let sink = OutputSink(capturing: ())
        sink.tap(1, exclusive: true, room: output.room)
        sink.write("ab")  // three bytes with its newline: kept
        sink.write("cde")  // four more: past the room, counted
        sink.write("f")  // what follows a cut is counted too, so what is kept has no gap
        output.append(sink.untap(1))
        #expect(output.output.hasSuffix("x\nab"))
        #expect(output.output.utf8.count <= OutputSink.tapLimit)
        #expect(output.cut == 6)
        #expect(output.room == 0, "once cut, nothing more is kept")
        sink.tap(1, exclusive: true, room: output.room)
        sink.write("g")
        output.append(sink.untap(1))
        #expect(output.output.hasSuffix("x\nab") && output.cut == 8)
    }
}
