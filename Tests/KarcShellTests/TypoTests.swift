import Foundation
import KarcShell
import TestSupport
import Testing

@testable import KarcSession

/// Typos the shell catches instead of answering as if they were meant: a
/// field the state's type does not have given to `:blame` or `:watch`, a
/// `:history` pattern that finds commands by what they printed, and a path
/// typed with a space in `:assert`. On ``HistoryTests``'s library.
@Suite(.timeLimit(.minutes(1)))
struct TypoTests {
    var options: ShellOptions {
        var options = ShellOptions()
        options.printing.color = false
        options.printing.quiet = true
        options.keepGoing = true
        return options
    }

    static func errors(_ run: Transcript) -> [String] {
        run.errors.split(separator: "\n").filter { $0.contains("error:") }.map(String.init)
    }

    @Test func blameAndWatchOfAFieldTheTypeDoesNotHaveAreErrorsNotAnEmptyHistory() async throws {
        let library = try await HistoryTests.library()
        let run = try await Transcript.run(
            library, [":blame shelf.bogus", "shelf.own name=Ann", ":watch shelf.owner.nmae", ":blame shelf.books[0].titel"], options: options)
        #expect(run.status == 1)
        #expect(
            Self.errors(run) == [
                "<test>:1:14: error: no field 'bogus' in HistoryTests.Shelf; did you mean 'books'? Fields: books, tags, owner",
                "<test>:3:14: error: no field 'nmae' in owner; did you mean 'name'? Fields: name",
                // No book yet: books[0] may come, so its field cannot be checked, and nothing was seen.
            ])
        #expect(!run.output.contains("watching"), "nothing is watched after an error")
        #expect(run.output.contains("blame  shelf.books[0].titel: no change seen this session"))
        await library.shutDown()
    }

    @Test func aPartAbsentNowIsStillBlamedAndWatched() async throws {
        let library = try await HistoryTests.library()
        // The owner is nil, the tags empty: their parts are not there yet, but they are the type's.
        let run = try await Transcript.run(
            library, [":blame shelf.owner.name", ":watch shelf.tags[\"x\"]", "shelf.own name=Ann", ":blame shelf.owner.name"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("blame  shelf.owner.name: no change seen this session"))
        #expect(run.output.contains("watching shelf.tags[\"x\"], not there now"))
        #expect(run.output.contains("blame  shelf.owner.name: 1 change, newest first"))
        await library.shutDown()
    }

    /// A key on a list, or an index on a struct, can never be there: an
    /// error, as a field the type does not have is, not a watch that waits for ever.
    @Test func aKeyOnAListOrAnIndexOnAStructIsAnErrorNotAWatchForEver() async throws {
        let library = try await HistoryTests.library()
        let run = try await Transcript.run(
            library, [":watch shelf.books[\"x\"]", ":blame shelf.owner[0]", ":watch shelf.books[0]"], options: options)
        #expect(
            Self.errors(run) == [
                "<test>:1:14: error: books is not a dictionary: [\"x\"] picks a value of one"
            ])
        // The owner is an optional (nil now): it may become anything, so its index is a part absent now.
        #expect(run.output.contains("blame  shelf.owner[0]: no change seen this session"))
        #expect(run.output.contains("watching shelf.books[0], not there now"))
        await library.shutDown()
    }

    /// `[-1]` is the last element, `[-2]` the one before, wherever a path is
    /// given: `:state`, `:watch` (the last element as it is at each change)
    /// and `:blame` (the element last now, under the index it was kept at).
    @Test func anIndexFromTheEndNamesTheLastElements() async throws {
        let library = try await HistoryTests.library()
        let run = try await Transcript.run(
            library,
            [
                "shelf.add title=Dune", "shelf.add title=Emma", ":watch shelf.books[-1].loans", "shelf.lend index=1",
                ":state shelf books[-2].title", ":blame shelf.books[-1].loans",
            ], options: options)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("watch  shelf.books[-1].loans: 0 → 1  (by #4 shelf.lend)"), "\(run.output)")
        #expect(run.output.contains("state  shelf books[-2].title: \"Dune\""), "\(run.output)")
        #expect(run.output.contains("blame  shelf.books[-1].loans: 2 changes, newest first"), "\(run.output)")
        await library.shutDown()
    }

    /// Watching a target and a part of it tells the part's change once, not once a watch.
    @Test func twoWatchesThatCoverOnePartTellItsChangeOnce() async throws {
        let library = try await HistoryTests.library()
        let run = try await Transcript.run(
            library, ["shelf.add title=Dune", ":watch shelf", ":watch shelf.books[0].loans", "shelf.lend index=0"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        let told = run.output.split(separator: "\n").filter { $0.hasPrefix("watch  ") }
        #expect(told == ["watch  shelf.books[0].loans: 0 → 1  (by #4 shelf.lend)"], "\(run.output)")
    }

    @Test func historyMatchesACommandLineAndOutputOnlyWhenAsked() async throws {
        let library = try await HistoryTests.library()
        // `shelf.add`'s diff prints a Book, and the failed remove says "no book at 5": "book" is in no line.
        let run = try await Transcript.run(
            library, ["shelf.add title=Dune", "shelf.remove index=5", ":history /book/", ":history /DUNE/", ":history output /book/"],
            options: options)
        let listed = run.output.split(separator: "\n").map(String.init).filter { $0.range(of: #"^ {4}\d  "#, options: .regularExpression) != nil }
        #expect(
            listed == [
                "    1  ok     shelf.add title=Dune",
                "    1  ok     shelf.add title=Dune",
                "    2  error  shelf.remove index=5",
            ])
        await library.shutDown()
    }

    @Test func historyOutputNeedsAPattern() async throws {
        let library = try await HistoryTests.library()
        let run = try await Transcript.run(library, [":history output", ":history output like", ":history output /(/"], options: options)
        #expect(
            Self.errors(run) == [
                "<test>:1:10: error: expected a /REGEX/ after :history output (like :history output /Dune/)",
                "<test>:2:17: error: a pattern is written between slashes: :history /like|remove/",
                "<test>:3:18: error: not a regular expression: (",
            ])
        #expect(MetaHistory.details.contains { $0.hasPrefix(":history output /") }, ":help :history tells the form")
        await library.shutDown()
    }

    @Test func assertOfAPathTypedWithASpaceSuggestsThePath() async throws {
        let library = try await HistoryTests.library()
        let run = try await Transcript.run(
            library, [":assert shelf.books count == 1", ":assert shelf.books [0] == 1", ":assert shelf.books count 1"], options: options)
        #expect(
            Self.errors(run) == [
                "<test>:1:21: error: unknown operator 'count'; did you mean shelf.books.count? (a path has no spaces)",
                "<test>:2:21: error: unknown operator '[0]'; did you mean shelf.books[0]? (a path has no spaces)",
                "<test>:3:21: error: unknown operator 'count'; expected one of ==, !=, <, <=, >, >=, contains",
            ])
        await library.shutDown()
    }
}
