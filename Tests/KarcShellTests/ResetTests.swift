import Foundation
import KarcShell
import KarcShellTrellis
import Testing
import Trellis

/// `:reset` on a cluster of the user's own with a target it cannot reset
/// (an actor model that is no `ResettableModel`): named, and nothing
/// changes, unless `--partial` says to reset the others.
@Suite(.timeLimit(.minutes(1)))
struct ResetTests {
    struct Shelf: Equatable, Sendable, Codable {
        var books: [String] = []
    }

    /// Who has a key: no reset puts it back.
    actor Keys: StatefulModel {
        var state: [String] = []
        func give(_ name: String) { state.append(name) }
    }

    struct Add: Action, Codable { var title: String }
    struct Give: Action, Codable { var name: String }

    static func library() async throws -> ClusterShell {
        let cluster = try await Bootstrap {
            Store(model: Shelf.self).mutate(on: Add.self) { shelf, add, _ in shelf.books.append(add.title) }.with(model: Shelf()).named("shelf")
            Store(model: Keys.self).mutate(on: Give.self) { keys, give, _ in keys.give(give.name) }.with(model: Keys()).named("keys")
        }
        return ClusterShell(name: "library", cluster: cluster)
    }

    var plain: ShellOptions { .plain(quiet: true, keepGoing: true) }

    @Test func aResetThatCannotResetEveryTargetNamesItAndChangesNothing() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(library, ["shelf.add title=Dune", "keys.give name=jill", ":reset"], options: plain)
        #expect(run.status == 1)
        #expect(
            run.errors.contains(
                "<test>:3:2: error: cannot reset keys: it has no reset (a Trellis actor model needs ResettableModel); nothing was reset. "
                    + ":reset --partial resets the other targets and leaves it as it is"), "\(run.errors)")
        #expect(await library.state(of: "shelf") as? Shelf == Shelf(books: ["Dune"]), "nothing was reset")
        #expect(!run.output.contains("reset  "))
        await library.cluster.shutDown()
    }

    @Test func aPartialResetResetsTheOthersAndNamesWhatItLeft() async throws {
        let library = try await Self.library()
        let run = try await Transcript.run(library, ["shelf.add title=Dune", "keys.give name=jill", ":reset --partial"], options: plain)
        #expect(run.status == 0, "\(run.errors)")
        let reset = try #require(run.output.components(separatedBy: "keys.give name=jill").last.flatMap { $0.range(of: "state  shelf:\n") })
        #expect(
            run.output[reset.lowerBound...].contains(
                """
                reset  changed shelf
                  left as they are, they cannot be reset: keys

                """), "\(run.output)")
        #expect(await library.state(of: "shelf") as? Shelf == Shelf())
        #expect(await library.state(of: "keys") as? [String] == ["jill"])
        await library.cluster.shutDown()
    }

    @Test func aResetSaysWhatItChangedEvenWithoutDiffs() async throws {
        let library = try await Self.library()
        var options = plain
        options.printing.diff = .off
        let run = try await Transcript.run(library, [":reset --partial", "shelf.add title=Dune", ":reset --partial"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                reset  nothing changed
                  left as they are, they cannot be reset: keys
                reset  changed shelf
                  left as they are, they cannot be reset: keys

                """)
        await library.cluster.shutDown()
    }

    @Test func aResetIsAJSONLineNamingWhatChangedAndWhatWasLeft() async throws {
        let library = try await Self.library()
        var options = plain
        options.printing.json = true
        let run = try await Transcript.run(library, ["shelf.add title=Dune", ":reset --partial"], options: options)
        #expect(run.status == 0, "\(run.errors)")
        let reset = try #require(
            run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["kind"] as? String == "reset" })
        #expect(reset["changed"] as? [String] == ["shelf"])
        #expect(reset["left"] as? [String] == ["keys"])
        await library.cluster.shutDown()
    }

    @Test func resetTakesOnlyPartial() async throws {
        let run = try await Transcript.run(try await Self.library(), [":reset now", ":reset --partial again"], options: plain)
        let errors = run.errors.split(separator: "\n").filter { $0.contains("error:") }.map(String.init)
        #expect(
            errors == [
                "<test>:1:8: error: :reset takes nothing but --partial (:reset --partial resets what it can)",
                "<test>:2:18: error: :reset takes nothing but --partial (:reset --partial resets what it can)",
            ])
    }
}
